import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { join, posix } from "node:path";
import type { LockedExternal } from "../../src/contract/lock.js";
import { RuntimeError } from "../errors.js";

/**
 * External packages (cave.config.json `external`) are imported from the deploy's node_modules, not from the build
 * folder. Before a tool's first use the runtime checks that each one it needs is installed at the version the lock
 * pins, and, when the deploy recorded a manifest (`cave verify --write-manifest`), that none of their files changed
 * since. Native binaries differ by machine, so their bytes are known only to the machine's own manifest. A platform
 * package (`optional` in the lock: npm installs it only where its os/cpu/libc match) may be absent; installed, it is
 * held to its pin like any other.
 */

/** The deploy's record of the installed external packages' files, beside the lock. */
export const MANIFEST_FILE = "cave.manifest.json";

export interface ExternalsManifest {
  /** The integrity of the lock the manifest was written for: a manifest of another build is refused. */
  readonly lockIntegrity: string;
  /** By install path: the package's name, version and every file under its folder with its sha256 (links by target). */
  readonly packages: Readonly<
    Record<
      string,
      { readonly name: string; readonly version: string; readonly files: Readonly<Record<string, string>> }
    >
  >;
}

/** An installed external package: its install path in the lock and its real folder on this machine. */
export interface InstalledExternal {
  readonly path: string;
  readonly name: string;
  readonly real: string;
}

/**
 * Checks the installed version of each package at `paths` against the lock (and against the manifest when given), or
 * throws LOCK_MISMATCH naming the package and what to do. `what` names the tool for messages.
 */
export function checkExternals(
  root: string,
  paths: readonly string[],
  pins: Readonly<Record<string, LockedExternal>> | undefined,
  manifest: ExternalsManifest | null,
  what: string,
): InstalledExternal[] {
  const installed: InstalledExternal[] = [];
  for (const path of paths) {
    const pin = pins?.[path];
    if (pin === undefined)
      throw new RuntimeError(
        "LOCK_INVALID",
        `${what} needs the external package at ${path}, which the lock's externals do not pin; regenerate the lock with cave build`,
      );
    const folder = join(root, ...path.split("/"));
    let version: unknown;
    try {
      version = (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version?: unknown }).version;
    } catch {
      // A platform package (sharp's @img/sharp-<os>-<cpu>) is installed only where its os/cpu/libc match: absent is
      // fine, unless the deploy's manifest recorded it here (then it was removed since).
      if (pin.optional && manifest?.packages[path] === undefined) continue;
      throw new RuntimeError(
        "LOCK_MISMATCH",
        `${what} needs the external package ${pin.name} ${pin.version} at ${path}, which is not installed; install the dependencies package-lock.json pins (npm ci) on this machine`,
      );
    }
    if (version !== pin.version) {
      throw new RuntimeError(
        "LOCK_MISMATCH",
        `${what} needs the external package ${pin.name} ${pin.version}, but ${path} holds version ${typeof version === "string" ? version : "(none)"}; install what package-lock.json pins (npm ci), or rebuild with cave build after changing it`,
      );
    }
    if (manifest !== null) checkFiles(folder, path, pin, manifest, what);
    installed.push({ path, name: pin.name, real: realpathSync(folder) });
  }
  return installed;
}

function checkFiles(
  folder: string,
  path: string,
  pin: LockedExternal,
  manifest: ExternalsManifest,
  what: string,
): void {
  const recorded = manifest.packages[path];
  if (recorded === undefined)
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${what} needs the external package ${pin.name} at ${path}, which ${MANIFEST_FILE} does not list; run cave verify --write-manifest again on this machine`,
    );
  const now = packageFiles(folder);
  const changed: string[] = [];
  for (const file of new Set([...Object.keys(recorded.files), ...Object.keys(now)])) {
    if (recorded.files[file] !== now[file]) changed.push(file);
  }
  if (changed.length > 0) {
    const shown = changed
      .sort()
      .slice(0, 3)
      .map((file) => `${path}/${file} ${file in now ? (file in recorded.files ? "changed" : "added") : "removed"}`);
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${what}: the external package ${pin.name} changed since ${MANIFEST_FILE} was written (${shown.join(", ")}${changed.length > 3 ? `, and ${changed.length - 3} more` : ""}); reinstall it (npm ci), or review the change and run cave verify --write-manifest again`,
    );
  }
}

/** Every file under a package's folder, by POSIX path relative to it, with its sha256; a link by its target, not followed. */
export function packageFiles(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const relative = prefix === "" ? name : posix.join(prefix, name);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[relative] = `link:${readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full, relative);
      else if (stat.isFile()) out[relative] = `sha256-${createHash("sha256").update(readFileSync(full)).digest("hex")}`;
    }
  };
  walk(folder, "");
  return out;
}

/** The manifest beside the lock, null when the deploy wrote none; a manifest for another lock is LOCK_MISMATCH. */
export function readManifest(root: string, lockIntegrity: string): ExternalsManifest | null {
  let text: string;
  try {
    text = readFileSync(join(root, MANIFEST_FILE), "utf8");
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code === "ENOENT") return null;
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${MANIFEST_FILE} could not be read; run cave verify --write-manifest again`,
    );
  }
  let manifest: ExternalsManifest;
  try {
    manifest = JSON.parse(text) as ExternalsManifest;
  } catch {
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${MANIFEST_FILE} is not valid JSON; run cave verify --write-manifest again`,
    );
  }
  if (
    typeof manifest !== "object" ||
    manifest === null ||
    typeof manifest.packages !== "object" ||
    manifest.packages === null
  ) {
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${MANIFEST_FILE} is not a manifest cave verify --write-manifest writes; run it again`,
    );
  }
  if (manifest.lockIntegrity !== lockIntegrity) {
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${MANIFEST_FILE} was written for another build (lock ${String(manifest.lockIntegrity)}, this lock is ${lockIntegrity}); run cave verify --write-manifest after deploying this build`,
    );
  }
  return manifest;
}

/** The manifest of the installed external packages the lock pins, as `cave verify --write-manifest` writes it (after checking their versions). */
export function manifestFor(
  root: string,
  lockIntegrity: string,
  pins: Readonly<Record<string, LockedExternal>>,
): ExternalsManifest {
  const packages: Record<string, ExternalsManifest["packages"][string]> = {};
  const paths = Object.keys(pins).sort();
  const installed = new Set(checkExternals(root, paths, pins, null, "the lock").map((one) => one.path));
  for (const path of paths)
    if (installed.has(path))
      packages[path] = {
        name: pins[path]!.name,
        version: pins[path]!.version,
        files: packageFiles(join(root, ...path.split("/"))),
      };
  return { lockIntegrity, packages };
}

/**
 * The packages to link into a private copy's node_modules so that a bundle's bare import resolves as from the root:
 * those not inside another's folder, nearest install first when two have the same name (Node's lookup order).
 */
export function topLevel(installed: readonly InstalledExternal[]): InstalledExternal[] {
  const byName = new Map<string, InstalledExternal>();
  const depth = (path: string) => path.split("/").filter((part) => part === "..").length;
  for (const one of [...installed].sort((a, b) => depth(a.path) - depth(b.path))) {
    if (installed.some((other) => other !== one && one.path.startsWith(`${other.path}/node_modules/`))) continue;
    if (!byName.has(one.name)) byName.set(one.name, one);
  }
  return [...byName.values()];
}
