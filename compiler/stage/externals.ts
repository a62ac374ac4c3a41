import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import type { LockedExternal } from "../../src/contract/lock.js";
import { sha256 } from "../../src/contract/hash.js";
import { error, type Diagnostic } from "../diagnostics.js";
import { findWorkspace } from "../workspaces.js";

/**
 * External packages (cave.config.json `external`): not bundled, imported from node_modules at run time. The lock pins
 * what review can see and every machine agrees on, from the committed package-lock.json: each package's name, version
 * and registry integrity, for the package and every package it depends on (what its code can load), by install path
 * relative to the project root. Native binaries differ by OS, CPU, libc and Node ABI, so their bytes are never pinned
 * here; `cave verify --write-manifest` records them on the deploy machine. Platform packages (optional, installed
 * where their os/cpu/libc match) are pinned for every platform, as package-lock.json lists them, and marked optional.
 */
export interface ExternalPins {
  /** Every pinned package, by install path relative to the root ("node_modules/better-sqlite3"). */
  readonly pins: Readonly<Record<string, LockedExternal>>;
  /** The install paths one configured package needs (itself and its dependencies), sorted. */
  readonly closure: ReadonlyMap<string, readonly string[]>;
}

interface LockfilePackage {
  readonly optional?: unknown;
  readonly version?: unknown;
  readonly integrity?: unknown;
  readonly dependencies?: unknown;
  readonly optionalDependencies?: unknown;
  readonly dev?: unknown;
}

const NO_PINS: ExternalPins = { pins: {}, closure: new Map() };

/** The package-lock.json that installs the project: the root's own, else its npm workspace's (never an unrelated one above it). */
function findLockfile(root: string): string | undefined {
  const own = join(root, "package-lock.json");
  if (existsSync(own)) return own;
  let workspace: string | undefined;
  try {
    workspace = findWorkspace(root)?.root;
  } catch {
    workspace = undefined;
  }
  return workspace !== undefined && existsSync(join(workspace, "package-lock.json"))
    ? join(workspace, "package-lock.json")
    : undefined;
}

/** The sha256 of the package-lock.json that pins external packages, or null without one (for the build cache's key). */
export function lockfileHash(root: string): string | null {
  const lockfile = findLockfile(root);
  if (lockfile === undefined) return null;
  try {
    return sha256(readFileSync(lockfile));
  } catch {
    return null;
  }
}

/** Pins the configured external packages; a package package-lock.json does not list (or lists without an integrity) is an error. */
export function pinExternals(root: string, names: readonly string[], diagnostics: Diagnostic[]): ExternalPins {
  if (names.length === 0) return NO_PINS;
  const at = { file: "cave.config.json" };
  const lockfile = findLockfile(root);
  if (lockfile === undefined) {
    diagnostics.push(
      error(
        "CAVE4124",
        `external packages (${names.join(", ")}) need a package-lock.json, and there is none at the project root (or its npm workspace's root)`,
        "Install the project with npm (npm install writes package-lock.json) and commit the lockfile: the lock pins each external package's version and integrity from it.",
        at,
      ),
    );
    return NO_PINS;
  }
  let packages: Record<string, LockfilePackage>;
  try {
    packages =
      (JSON.parse(readFileSync(lockfile, "utf8")) as { packages?: Record<string, LockfilePackage> }).packages ?? {};
  } catch {
    diagnostics.push(
      error(
        "CAVE4124",
        "package-lock.json could not be read as JSON",
        "Repair it with npm install (lockfileVersion 2 or 3).",
        at,
      ),
    );
    return NO_PINS;
  }
  const base = dirname(lockfile);
  // The project's folder as package-lock.json names it ("" at the lockfile's own folder, "packages/app" in a workspace).
  const home = relative(base, root).split("\\").join("/");
  /** Node's lookup: the nearest node_modules/<name> at or above `from` (a package-lock key), as npm installed it. */
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = parentFolder(dir)) {
      const key = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      if (packages[key] !== undefined) return key;
      if (dir === "") return undefined;
    }
  };
  const pins: Record<string, LockedExternal> = {};
  const closure = new Map<string, readonly string[]>();
  for (const name of [...names].sort()) {
    const top = resolveFrom(home, name);
    if (top === undefined) {
      diagnostics.push(
        error(
          "CAVE4124",
          `the external package ${name} is not in package-lock.json`,
          `Install it (npm install ${name}) and commit package-lock.json, or remove it from "external".`,
          at,
        ),
      );
      continue;
    }
    const needed: string[] = [];
    const queue = [top];
    const seen = new Set<string>();
    let broken = false;
    while (queue.length > 0) {
      const key = queue.shift()!;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = packages[key]!;
      const packageName = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
      if (typeof entry.version !== "string" || typeof entry.integrity !== "string") {
        diagnostics.push(
          error(
            "CAVE4124",
            `package-lock.json lists ${packageName} (needed by the external package ${name}) without a registry version and integrity (${key})`,
            "External packages and their dependencies must come from the registry: install them with npm install, not from a link or a folder.",
            at,
          ),
        );
        broken = true;
        continue;
      }
      const path = posix.relative(home, key);
      // npm marks a package optional when only optional dependencies reach it: a platform's binary (sharp's
      // @img/sharp-<os>-<cpu>) that package-lock.json records for every platform and npm installs on matching ones only.
      pins[path] = {
        name: packageName,
        version: entry.version,
        integrity: entry.integrity,
        optional: entry.optional === true,
      };
      needed.push(path);
      for (const field of [entry.dependencies, entry.optionalDependencies]) {
        if (typeof field !== "object" || field === null) continue;
        for (const dependency of Object.keys(field).sort()) {
          const found = resolveFrom(key, dependency);
          // An optional dependency npm did not install here (another OS or CPU) is not needed.
          if (found !== undefined) queue.push(found);
          else if (field === entry.dependencies) {
            diagnostics.push(
              error(
                "CAVE4124",
                `package-lock.json has no install of ${dependency}, a dependency of ${packageName} (needed by the external package ${name})`,
                "Run npm install to repair package-lock.json.",
                at,
              ),
            );
            broken = true;
          }
        }
      }
    }
    if (!broken) closure.set(name, needed.sort());
  }
  return { pins: sortedRecord(pins), closure };
}

function parentFolder(key: string): string {
  const at = key.lastIndexOf("/node_modules/");
  return at < 0 ? "" : key.slice(0, at);
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The configured package an import specifier names ("better-sqlite3", "better-sqlite3/lib/x.js"), if any. */
export function externalOf(specifier: string, names: readonly string[]): string | undefined {
  return names.find((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** What esbuild leaves unbundled for these packages: the package and any path inside it. */
export function esbuildExternals(names: readonly string[]): string[] {
  return names.flatMap((name) => [name, `${name}/*`]);
}
