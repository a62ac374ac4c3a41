import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hashJson, sha256 } from "../../src/contract/hash.js";
import { writeFileAtomic } from "../emit/atomic.js";
import type { Diagnostic } from "../diagnostics.js";

/**
 * The whole-build cache: a build whose every input file (the discovered modules and every file of every
 * staged source graph) still has the recorded hash, under the same compiler and options, reuses the
 * recorded output byte for byte. A miss only costs time; a hit can never change the output, because
 * every byte that went into the output is re-hashed before the hit is taken.
 */
export interface CacheEntry {
  readonly key: string;
  /** Absolute path -> sha256 of every input file of the build. */
  readonly inputs: Readonly<Record<string, string>>;
  readonly lockText: string;
  readonly files: Readonly<Record<string, string>>;
  readonly diagnostics: readonly Diagnostic[];
}

export const CACHE_FILE = "build-cache.json";

/** Where the cache lives: node_modules/.cache/cave, the conventional, already git-ignored place. */
export function cacheDir(root: string): string {
  return join(root, "node_modules", ".cache", "cave");
}

export function cacheKey(identity: string, settings: unknown, discovered: readonly string[]): string {
  return hashJson({ identity, settings, discovered });
}

/** The recorded build when every input still hashes the same, else undefined. */
export function lookup(root: string, key: string): CacheEntry | undefined {
  const file = join(cacheDir(root), CACHE_FILE);
  if (!existsSync(file)) return undefined;
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
  if (entry.key !== key) return undefined;
  for (const [path, hash] of Object.entries(entry.inputs)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return undefined;
    }
    if (sha256(bytes) !== hash) return undefined;
  }
  return entry;
}

/** Records a successful build; failures to write the cache never fail the build. */
export function store(root: string, entry: CacheEntry): void {
  try {
    mkdirSync(cacheDir(root), { recursive: true });
    writeFileAtomic(join(cacheDir(root), CACHE_FILE), JSON.stringify(entry));
  } catch {
    // A read-only node_modules only costs the next build its speed.
  }
}
