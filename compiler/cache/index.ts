import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { hashJson, sha256 } from "../../src/contract/hash.js";
import { writeFileAtomic } from "../emit/atomic.js";
import type { Diagnostic } from "../diagnostics.js";
import type { FileContent } from "../types.js";

/**
 * The whole-build cache. An entry records, for one successful written build, the hash of every input
 * (the discovered modules and every file of every staged graph) and of every output (the lock and each
 * build-folder file). A later build under the same compiler and settings takes the hit only when every
 * input still hashes the same AND the lock and build folder on disk still hash as written: then the
 * output on disk is byte for byte what a full build would produce, so the cache can never change it.
 */
export interface CacheEntry {
  readonly key: string;
  /** Absolute path -> sha256 of every input file of the build. */
  readonly inputs: Readonly<Record<string, string>>;
  readonly lockPath: string;
  readonly lockSha256: string;
  /** Build-folder files (root-relative) -> sha256. */
  readonly outputs: Readonly<Record<string, string>>;
  /** Warnings of the recorded build (a cached build reports them again). */
  readonly diagnostics: readonly Diagnostic[];
}

export interface CacheHit {
  readonly lockText: string;
  readonly files: ReadonlyMap<string, FileContent>;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * node_modules/.cache/cave of the nearest folder with a node_modules (the conventional, already git-ignored place
 * for tool caches). Each cache file in it is named by the project root, so projects sharing a node_modules never
 * read each other's entries.
 */
export function cacheFolder(root: string): string {
  let dir = root;
  for (;;) {
    if (existsSync(join(dir, "node_modules"))) break;
    const parent = dirname(dir);
    if (parent === dir) {
      dir = root;
      break;
    }
    dir = parent;
  }
  return join(dir, "node_modules", ".cache", "cave");
}

/** The whole-build cache entry of a project root. */
export function cacheFile(root: string): string {
  return join(cacheFolder(root), `build-${sha256(root).slice(7, 23)}.json`);
}

export function cacheKey(identity: string, settings: unknown, discovered: readonly string[]): string {
  return hashJson({ identity, settings, discovered });
}

function hashFile(path: string): string | undefined {
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** The recorded build's output, read back from disk, when nothing it depended on or produced has changed. */
export function lookup(root: string, key: string, outDir: string): CacheHit | undefined {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(cacheFile(root), "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
  if (entry.key !== key) return undefined;
  for (const [path, hash] of Object.entries(entry.inputs)) if (hashFile(path) !== hash) return undefined;
  let lockText: string;
  try {
    lockText = readFileSync(join(root, entry.lockPath), "utf8");
  } catch {
    return undefined;
  }
  if (sha256(lockText) !== entry.lockSha256) return undefined;
  const onDisk = listFiles(join(root, outDir)).map((relative) => posix.join(outDir, relative));
  if (onDisk.length !== Object.keys(entry.outputs).length) return undefined;
  const files = new Map<string, FileContent>();
  for (const path of onDisk.sort()) {
    const expected = entry.outputs[path];
    if (expected === undefined) return undefined;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      return undefined;
    }
    if (sha256(bytes) !== expected) return undefined;
    // Text as the build made it (bundles, validators, text assets); a binary asset stays bytes.
    const text = bytes.toString("utf8");
    files.set(path, Buffer.from(text, "utf8").equals(bytes) ? text : new Uint8Array(bytes));
  }
  return { lockText, files, diagnostics: entry.diagnostics };
}

/** Records a successful written build; a cache that cannot be written only costs the next build its speed. */
export function store(root: string, entry: CacheEntry): void {
  try {
    const file = cacheFile(root);
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, JSON.stringify(entry));
  } catch {
    // read-only node_modules: nothing to do
  }
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      posix.relative(dir.split("\\").join("/"), join(entry.parentPath, entry.name).split("\\").join("/")),
    );
}
