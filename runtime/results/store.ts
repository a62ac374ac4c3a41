import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { checkRecoveryKey, CODE_FIX, RecoveryKeyError, RECOVERY_KEY_BYTES } from "./key.js";

/**
 * Where exact results are kept for cave_page and cave_recover, addressed by the sha256 of their
 * bytes. Implement it over any durable storage; the runtime verifies every read itself.
 *
 * The rules an implementation keeps (docs/result-plans.md, "The store"):
 * - `key()` gives the same 32 random bytes to every runtime that may read the store, for as long as
 *   it holds anything; the runtime refuses any other length (RECOVERY_KEY_INVALID) rather than sign
 *   with it. Create it atomically: a reader must never see a partial key.
 * - Results and the key are readable by the host's user only.
 * - A result is kept at least `retentionMs` after it was last put (cursors and references expire
 *   then, so none outlives what it names); after that `get` may return null.
 */
export interface RecoveryStore {
  /** Stores `bytes` under `sha256` ("sha256-<hex>"); storing the same bytes again is harmless and makes them fresh. */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under `sha256`, or null when there are none. */
  get(sha256: string): Promise<Uint8Array | null>;
  /** The secret that signs this store's cursors and references: exactly 32 bytes, as durable as the bytes. */
  key(): Promise<Uint8Array>;
  /**
   * How long (ms) a result is kept at least after its last put: cursors and references are issued
   * with this lifetime. A store that does not say gets RECOVERY_RETENTION.maxAgeMs.
   */
  readonly retentionMs?: number;
}

/**
 * The default retention of the file store: a week covers a conversation resumed the next working
 * day; 1 GiB bounds the disk a flood of large results can take (the oldest go first).
 */
export const RECOVERY_RETENTION = Object.freeze({ maxAgeMs: 7 * 24 * 3600 * 1000, maxBytes: 1024 ** 3 });

export interface FileRecoveryStoreOptions {
  /** Results older than this (ms since last put) are not returned and are deleted (default 7 days). */
  readonly maxAgeMs?: number;
  /** Past this many bytes of results, the oldest are deleted (default 1 GiB). */
  readonly maxBytes?: number;
  /** The clock (ms since the epoch); for tests. */
  readonly now?: () => number;
}

const OPTION_KEYS = new Set(["maxAgeMs", "maxBytes", "now"]);

/** The file store as created by createFileRecoveryStore: a RecoveryStore that can also be pruned on demand. */
export interface FileRecoveryStore extends RecoveryStore {
  readonly retentionMs: number;
  /** Deletes results older than maxAgeMs, then the oldest until the rest fit maxBytes. */
  prune(): Promise<void>;
}

const HASH = /^sha256-([0-9a-f]{64})$/;
const RESULT_FILE = /^[0-9a-f]{64}\.json$/;

function hexOf(sha256: string): string {
  const match = HASH.exec(sha256);
  if (!match) throw new TypeError(`not a sha256 address: ${JSON.stringify(sha256.slice(0, 80))}`);
  return match[1]!;
}

/**
 * The default store: one file per result under `dir` (by default <root>/.cave-state/recovery, outside
 * the build folder, which every build replaces), written to a temporary name and renamed into place,
 * and a 32-byte signing key in `dir/key`, created on first use. Folders are 0700, files 0600.
 * It prunes itself as results are written: whenever the bytes written since the last prune reach an
 * eighth of maxBytes, or maxAgeMs/24 has passed since it (and once at the first put).
 */
export function createFileRecoveryStore(dir: string, options: FileRecoveryStoreOptions = {}): FileRecoveryStore {
  const unknown = Object.keys(options).filter((name) => !OPTION_KEYS.has(name));
  if (unknown.length > 0)
    throw new TypeError(
      `createFileRecoveryStore() does not know the option(s) ${unknown.join(", ")}; it takes maxAgeMs, maxBytes and now`,
    );
  const maxAgeMs = positive("maxAgeMs", options.maxAgeMs ?? RECOVERY_RETENTION.maxAgeMs);
  const maxBytes = positive("maxBytes", options.maxBytes ?? RECOVERY_RETENTION.maxBytes);
  const now = options.now ?? Date.now;
  let key: Promise<Uint8Array> | undefined;
  let written = 0;
  let lastPrune = -Infinity;
  let pruning: Promise<void> | undefined;
  let sealed = false;
  const path = (sha256: string) => {
    const hex = hexOf(sha256);
    return { folder: join(dir, hex.slice(0, 2)), file: join(dir, hex.slice(0, 2), `${hex}.json`) };
  };
  const prune = () => {
    pruning ??= pruneFolder(dir, maxAgeMs, maxBytes, now()).finally(() => {
      pruning = undefined;
    });
    return pruning;
  };
  return {
    retentionMs: maxAgeMs,
    async put(sha256, bytes) {
      const { folder, file } = path(sha256);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // A folder made by an older version (0755) is closed once, so results written then (0644) are private too.
      if (!sealed) {
        await chmod(dir, 0o700);
        sealed = true;
      }
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(temp, bytes, { mode: 0o600 });
      await rename(temp, file);
      written += bytes.length;
      if (written * 8 >= maxBytes || now() - lastPrune >= maxAgeMs / 24) {
        written = 0;
        lastPrune = now();
        await prune();
      }
    },
    async get(sha256) {
      let handle;
      try {
        handle = await open(path(sha256).file, "r");
      } catch (thrown) {
        if ((thrown as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw thrown;
      }
      try {
        // Past its retention a result is gone, whether or not a prune has deleted it yet.
        if (now() - (await handle.stat()).mtimeMs > maxAgeMs) return null;
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    },
    key() {
      key ??= loadKey(dir).catch((thrown) => {
        key = undefined;
        throw thrown;
      });
      return key;
    },
    prune,
  };
}

function positive(name: string, value: unknown): number {
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value))
    throw new TypeError(
      `createFileRecoveryStore() option ${name} must be a positive finite number, got ${String(value)}`,
    );
  return value;
}

/**
 * The key in `dir/key`: read it, or create it atomically. A fresh key is written in full (and
 * flushed) under a temporary name, then linked to `key`: link never replaces an existing file, so
 * of two processes creating it at once one wins and both use its key, and no reader ever sees a
 * partial key. A key that exists with any length but 32 is refused, never used or replaced: after a
 * crash it is damaged, and replacing it silently would change the key under stored references.
 */
async function loadKey(dir: string): Promise<Uint8Array> {
  const file = join(dir, "key");
  const existing = await readKey(file);
  if (existing !== null) return existing;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `key.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(randomBytes(RECOVERY_KEY_BYTES));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, file);
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code !== "EEXIST") throw thrown;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const created = await readKey(file);
  if (created === null) throw new RecoveryKeyError("the recovery key vanished while it was being created; call again");
  return created;
}

async function readKey(file: string): Promise<Uint8Array | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw thrown;
  }
  checkRecoveryKey(
    bytes,
    "the recovery key file (key in the recovery store's folder, by default <root>/.cave-state/recovery/key)",
  );
  return bytes;
}

/** Deletes results past maxAgeMs, then the oldest until the rest fit maxBytes. Leftover temporary files older than an hour go too. */
async function pruneFolder(dir: string, maxAgeMs: number, maxBytes: number, now: number): Promise<void> {
  let folders: string[];
  try {
    folders = await readdir(dir);
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code === "ENOENT") return;
    throw thrown;
  }
  const kept: Array<{ file: string; size: number; mtimeMs: number }> = [];
  for (const folder of folders) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    let names: string[];
    try {
      names = await readdir(join(dir, folder));
    } catch {
      continue;
    }
    for (const name of names) {
      const file = join(dir, folder, name);
      const info = await stat(file).catch(() => null);
      if (info === null || !info.isFile()) continue;
      const age = now - info.mtimeMs;
      if (!RESULT_FILE.test(name)) {
        if (name.endsWith(".tmp") && age > 3600_000) await rm(file, { force: true });
        continue;
      }
      if (age > maxAgeMs) await rm(file, { force: true });
      else kept.push({ file, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  let total = kept.reduce((sum, entry) => sum + entry.size, 0);
  if (total <= maxBytes) return;
  kept.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.file < b.file ? -1 : 1));
  for (const entry of kept) {
    if (total <= maxBytes) break;
    await rm(entry.file, { force: true });
    total -= entry.size;
  }
}

/** A store in memory: for tests and for hosts that keep results only for the life of the process. */
export function createMemoryRecoveryStore(key: Uint8Array = randomBytes(RECOVERY_KEY_BYTES)): RecoveryStore {
  checkRecoveryKey(key, "createMemoryRecoveryStore()'s key", CODE_FIX);
  const entries = new Map<string, Uint8Array>();
  return {
    async put(sha256, bytes) {
      hexOf(sha256);
      entries.set(sha256, Uint8Array.from(bytes));
    },
    async get(sha256) {
      const bytes = entries.get(sha256);
      return bytes === undefined ? null : Uint8Array.from(bytes);
    },
    async key() {
      return key;
    },
  };
}
