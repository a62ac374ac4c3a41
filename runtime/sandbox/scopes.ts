import { accessSync, constants, lstatSync, mkdirSync, realpathSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join } from "node:path";
import { parseScope, type FsScope, type LockedFs } from "../../src/contract/fs-scopes.js";
import { unsafePermissionPath } from "./layers.js";
import type { Mount } from "./os-layer.js";

/**
 * What a tool's locked filesystem scopes become on this machine (docs/sandbox.md, "Filesystem scopes"): bind mounts
 * under the OS layer, the permission model's allowances, and the environment names under which the tool finds the
 * directories of named settings. Worked out again for every child it starts, so a scope replaced by a symbolic link
 * after the build (or after the last child) is refused, never followed.
 */
export interface ScopeGrant {
  /** Host path (checked, real) bound at the path the child uses; read-write for write scopes. Parents before children. */
  readonly mounts: readonly Mount[];
  /** Paths the child may read (--allow-fs-read): every read and write scope, as the child sees them. */
  readonly read: readonly string[];
  /** Paths the child may write (--allow-fs-write). */
  readonly write: readonly string[];
  /** A named setting's directory, under its own name, as the deploy gave it. */
  readonly env: Readonly<Record<string, string>>;
}

export interface ScopeRefusal {
  readonly problem: string;
}

/** "create": make missing write scopes (a deploy, a child's start); "check": only say whether they could be (cave verify). */
export type ScopeMode = "create" | "check";

/**
 * Resolves a tool's scopes under `root` (the project root as the runtime was given it, which is the child's working
 * directory) and the named settings in `env`. Refuses, naming the scope, when a setting is missing or not an absolute
 * directory, a read scope does not exist, a write scope is a file or cannot be created, a scope passes through a
 * symbolic link below its base, a glob matches a symbolic link, or a path holds a character Node's permission flags
 * interpret.
 */
export function grantScopes(
  fs: LockedFs,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  mode: ScopeMode,
): ScopeGrant | ScopeRefusal {
  const targets = new Map<string, Mount>();
  const settings: Record<string, string> = {};
  for (const [kind, texts] of [
    ["write", fs.write],
    ["read", fs.read],
  ] as const) {
    for (const text of texts) {
      const parsed = parseScope(text);
      if (!parsed.ok) return { problem: `${kind} scope ${JSON.stringify(text)} ${parsed.problem}` };
      const scope = parsed.scope;
      const base = baseOf(scope, root, env);
      if ("problem" in base) return { problem: `${kind} scope ${JSON.stringify(text)}: ${base.problem}` };
      if (scope.base.kind === "setting") settings[scope.base.name] = base.shown;
      const found = scope.glob ? globbed(scope, base) : [walk(scope.path, base, kind, mode)];
      for (const entry of found) {
        if ("problem" in entry) return { problem: `${kind} scope ${JSON.stringify(text)} ${entry.problem}` };
        if (entry.missing) continue;
        const unsafe = unsafePermissionPath(entry.target);
        if (unsafe !== null) {
          return {
            problem: `${kind} scope ${JSON.stringify(text)} is at a path holding ${JSON.stringify(unsafe)}, which Node's permission flags read as ${unsafe === "*" ? "a wildcard" : "a separator"}; move it to a path without "*" or ","`,
          };
        }
        // A write scope wins over a read scope of the same path.
        if (!targets.has(entry.target))
          targets.set(entry.target, { path: entry.source, target: entry.target, write: kind === "write" });
      }
    }
  }
  const writes = [...targets.values()].filter((mount) => mount.write === true).map((mount) => mount.target!);
  // A read scope inside a write scope is already readable and writable there; a read-only bind on top would take that away.
  const mounts = [...targets.values()]
    .filter((mount) => mount.write === true || !writes.some((w) => within(mount.target!, w)))
    .sort((a, b) => (a.target! < b.target! ? -1 : a.target! > b.target! ? 1 : 0));
  return { mounts, read: mounts.map((mount) => mount.target!), write: writes.sort(), env: settings };
}

interface Base {
  /** The base as the child sees it (and the deploy wrote it). */
  readonly shown: string;
  /** Its real path on the host, where checks start. */
  readonly real: string;
}

function baseOf(scope: FsScope, root: string, env: Readonly<Record<string, string | undefined>>): Base | ScopeRefusal {
  if (scope.base.kind === "project") return { shown: root, real: realpathSync(root) };
  const { name } = scope.base;
  const value = env[name];
  if (value === undefined || value === "")
    return {
      problem: `the runtime setting ${name} is not set; give the directory in the environment variable ${name} (an absolute path) where the runtime runs`,
    };
  if (!isAbsolute(value))
    return { problem: `the runtime setting ${name} must be an absolute path (got ${JSON.stringify(value)})` };
  let real: string;
  try {
    real = realpathSync(value);
  } catch {
    return {
      problem: `the runtime setting ${name} names ${value}, which does not exist; create it (the deploy gives it) or correct ${name}`,
    };
  }
  if (!lstatSync(real).isDirectory())
    return { problem: `the runtime setting ${name} names ${value}, which is not a directory` };
  return { shown: value, real };
}

type Entry = { readonly source: string; readonly target: string; readonly missing: boolean } | ScopeRefusal;

/**
 * `path` under `base`, one component at a time from the base's real path: a symbolic link on the way is refused
 * (bwrap and the kernel would follow it out of the scope); a missing write scope is created (or, for "check", its
 * nearest existing parent must be a writable directory); a missing read scope is refused.
 */
function walk(path: string, base: Base, kind: "read" | "write", mode: ScopeMode): Entry {
  let current = base.real;
  let stat: Stats = lstatSync(current);
  const parts = path === "" ? [] : path.split("/");
  for (let i = 0; i < parts.length; i++) {
    const next = join(current, parts[i]!);
    const shown = parts.slice(0, i + 1).join("/");
    let found: Stats | null;
    try {
      found = lstatSync(next);
    } catch (thrown) {
      if ((thrown as { code?: unknown }).code !== "ENOENT") throw thrown;
      found = null;
    }
    if (found === null) {
      if (kind === "read")
        return { problem: `does not exist (${shown} is missing); create it, or drop the scope and rebuild` };
      if (mode === "check") {
        try {
          accessSync(current, constants.W_OK);
        } catch {
          return {
            problem: `cannot be created: its parent ${parts.slice(0, i).join("/") || "(the base)"} is not writable`,
          };
        }
        return { source: join(base.real, path), target: join(base.shown, path), missing: true };
      }
      try {
        mkdirSync(next);
      } catch (thrown) {
        return {
          problem: `could not be created (${(thrown as { code?: string }).code ?? String(thrown)} at ${shown})`,
        };
      }
      found = lstatSync(next);
    }
    if (found.isSymbolicLink())
      return {
        problem: `passes through a symbolic link (${shown}); a scope is never followed out of its base: replace the link with the directory itself`,
      };
    if (i < parts.length - 1 && !found.isDirectory())
      return { problem: `passes through ${shown}, which is not a directory` };
    current = next;
    stat = found;
  }
  if (kind === "write" && !stat.isDirectory())
    return {
      problem: "is not a directory; write scopes are directories (a single file cannot be mounted read-write safely)",
    };
  if (!stat.isDirectory() && !stat.isFile()) return { problem: "is neither a file nor a directory" };
  return { source: current, target: join(base.shown, path), missing: false };
}

/** The files a glob read scope matches now, each checked like a path; its fixed leading folders must exist. */
function globbed(scope: FsScope, base: Base): Entry[] {
  const parts = scope.path.split("/");
  const fixed = parts.slice(
    0,
    parts.findIndex((part) => /[*?[\]{}]/.test(part)),
  );
  const folder = walk(fixed.join("/"), base, "read", "check");
  if ("problem" in folder) return [folder];
  const pattern = parts.slice(fixed.length).join("/");
  // fast-glob only when a scope is a glob: the runtime's start-up never pays for it.
  const fg = createRequire(import.meta.url)("fast-glob") as {
    sync(pattern: string, options: Record<string, unknown>): string[];
  };
  const matches = fg
    .sync(pattern, { cwd: folder.source, onlyFiles: false, followSymbolicLinks: false, unique: true })
    .sort();
  const out: Entry[] = [];
  for (const match of matches) {
    const path = [...fixed, match].join("/");
    const stat = lstatSync(join(folder.source, match));
    if (stat.isSymbolicLink())
      return [{ problem: `matches ${path}, a symbolic link; a scope is never followed out of its base` }];
    if (stat.isFile()) out.push({ source: join(base.real, path), target: join(base.shown, path), missing: false });
  }
  return out;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}
