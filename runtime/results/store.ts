import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Where exact results are kept for cave_page and cave_recover, addressed by the sha256 of their
 * bytes. Implement it over any durable storage; the runtime verifies every read itself.
 */
export interface RecoveryStore {
  /** Stores `bytes` under `sha256` ("sha256-<hex>"); storing the same bytes again is harmless. */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under `sha256`, or null when there are none. */
  get(sha256: string): Promise<Uint8Array | null>;
  /** The secret that signs this store's cursors and references (keep it as durable as the bytes). */
  key(): Promise<Uint8Array>;
}

const HASH = /^sha256-([0-9a-f]{64})$/;

function hexOf(sha256: string): string {
  const match = HASH.exec(sha256);
  if (!match) throw new TypeError(`not a sha256 address: ${JSON.stringify(sha256.slice(0, 80))}`);
  return match[1]!;
}

/**
 * The default store: one file per result under `dir` (by default <root>/.cave-state/recovery, outside
 * the build folder, which every build replaces), written to a temporary name and renamed into place,
 * and a 32-byte signing key in `dir/key`, created on first use.
 */
export function createFileRecoveryStore(dir: string): RecoveryStore {
  let key: Promise<Uint8Array> | undefined;
  const path = (sha256: string) => {
    const hex = hexOf(sha256);
    return { folder: join(dir, hex.slice(0, 2)), file: join(dir, hex.slice(0, 2), `${hex}.json`) };
  };
  return {
    async put(sha256, bytes) {
      const { folder, file } = path(sha256);
      await mkdir(folder, { recursive: true });
      const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, file);
    },
    async get(sha256) {
      try {
        return await readFile(path(sha256).file);
      } catch (thrown) {
        if ((thrown as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw thrown;
      }
    },
    key() {
      key ??= loadKey(dir).catch((thrown) => {
        key = undefined;
        throw thrown;
      });
      return key;
    },
  };
}

async function loadKey(dir: string): Promise<Uint8Array> {
  const file = join(dir, "key");
  try {
    const existing = await readFile(file);
    if (existing.length === 32) return existing;
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code !== "ENOENT") throw thrown;
  }
  await mkdir(dir, { recursive: true });
  const fresh = randomBytes(32);
  try {
    await writeFile(file, fresh, { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (thrown) {
    // Another process created it first: use theirs, so both sign alike.
    if ((thrown as NodeJS.ErrnoException).code === "EEXIST") return readFile(file);
    throw thrown;
  }
}

/** A store in memory: for tests and for hosts that keep results only for the life of the process. */
export function createMemoryRecoveryStore(key: Uint8Array = randomBytes(32)): RecoveryStore {
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
