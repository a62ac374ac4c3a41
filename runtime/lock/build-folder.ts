import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256 } from "../../src/contract/hash.js";
import type { CaveLock } from "../../src/contract/lock.js";
import { compare, isRecord } from "./inspect.js";
import type { LockProblem } from "./problems.js";

interface PinnedFile {
  readonly sha256: string;
  /** Who pins it, for messages: `bundle of tool "x"`. */
  readonly owners: string[];
}

/**
 * A build folder against its lock: every file the lock pins is there, a regular file, with its hash; the folder holds
 * nothing else; bundles and validators are inside it. Problems in a stable order.
 */
export async function buildFolderProblems(root: string, lock: CaveLock): Promise<LockProblem[]> {
  const { files, problems } = pinnedFiles(lock);
  const folderStat = await lstat(join(root, lock.buildDir)).catch(() => null);
  if (folderStat === null || !folderStat.isDirectory())
    return [...problems, { kind: "build-folder-missing", buildDir: lock.buildDir }];
  for (const [path, pinned] of [...files].sort(([a], [b]) => compare(a, b))) {
    const what = pinned.owners[0]!;
    const stat = await lstat(join(root, path)).catch(() => null);
    if (stat === null) problems.push({ kind: "file-missing", path, what });
    else if (!stat.isFile()) problems.push({ kind: "not-a-file", path, what });
    else {
      const actual = sha256(await readFile(join(root, path)));
      if (actual !== pinned.sha256) problems.push({ kind: "file-hash", path, what, pinned: pinned.sha256, actual });
    }
  }
  for (const path of await listFiles(root, lock.buildDir))
    if (!files.has(path)) problems.push({ kind: "unreferenced-file", path });
  return problems;
}

/**
 * Every build-folder file the lock pins: any object in the lock holding a path inside the build
 * folder (under module, bundle, path or file) next to a sha256. That covers bundles and validators
 * today and any file a later part of the lock pins the same way, so it is never reported as extra.
 */
function pinnedFiles(lock: CaveLock): { files: Map<string, PinnedFile>; problems: LockProblem[] } {
  const files = new Map<string, PinnedFile>();
  const problems: LockProblem[] = [];
  const prefix = `${lock.buildDir}/`;
  const visit = (value: unknown, owner: string, at: readonly string[]) => {
    if (Array.isArray(value)) return value.forEach((item, i) => visit(item, owner, [...at, String(i)]));
    if (!isRecord(value)) return;
    for (const key of ["bundle", "module", "path", "file"]) {
      const path = value[key];
      if (typeof path !== "string" || typeof value.sha256 !== "string" || !path.startsWith(prefix)) continue;
      const what = `${describePin([...at, key].join("."))} of ${owner}`;
      const known = files.get(path);
      if (!known) files.set(path, { sha256: value.sha256, owners: [what] });
      else if (known.sha256 !== value.sha256)
        problems.push({ kind: "pinned-twice", path, first: known.owners[0]!, second: what });
      else known.owners.push(what);
    }
    for (const key of Object.keys(value).sort()) visit(value[key], owner, [...at, key]);
  };
  for (const name of Object.keys(lock.tools).sort()) {
    const tool = lock.tools[name]!;
    // Bundles and validators must live in the build folder: a path elsewhere would load unreviewed code.
    const paths: Array<[string, string]> = [["source.bundle", tool.source.bundle]];
    for (const side of ["input", "output"] as const) {
      const validation = tool[side]?.validation;
      if (validation?.kind === "precompiled") paths.push([`${side}.validation.module`, validation.module]);
    }
    for (const [at, path] of paths)
      if (!path.startsWith(prefix))
        problems.push({ kind: "outside-build-folder", tool: name, at, path, buildDir: lock.buildDir });
    visit(tool, `tool ${JSON.stringify(name)}`, []);
  }
  for (const key of Object.keys(lock).sort())
    if (key !== "tools" && key !== "agents")
      visit((lock as unknown as Record<string, unknown>)[key], "the lock", [key]);
  return { files, problems };
}

/** "staged bundle", "input validator"...: what a pinned file is, from where the lock pins it. */
function describePin(at: string): string {
  const known: Record<string, string> = {
    "source.bundle": "staged bundle",
    "input.validation.module": "input validator",
    "output.validation.module": "output validator",
    "result.plan.transform.module": "result transform",
  };
  return known[at] ?? `file pinned at ${at}`;
}

/** Every non-directory entry under `dir` (relative to root), as sorted POSIX paths relative to the root. */
async function listFiles(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relativeDir: string) => {
    const entries = await readdir(join(root, relativeDir), { withFileTypes: true });
    for (const entry of entries) {
      const path = `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else out.push(path);
    }
  };
  await walk(dir);
  return out.sort(compare);
}
