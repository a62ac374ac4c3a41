import { hashJson } from "./hash.js";
import type { CaveLock, LockedTool } from "./lock.js";

/**
 * How a lock is sealed, stated once for the compiler that writes locks, the runtime and `cave verify` that check them,
 * and the tests that forge them: each tool's entry is pinned by the hash of its canonical JSON in `toolHashes`, and
 * `integrity` is the hash of the canonical JSON of everything else. So the runtime verifies a small header at start-up
 * and one entry on its first use, and a changed entry breaks either its own hash or, if that was rewritten too, the
 * integrity. One hashing function over one canonical serialisation (hash.ts), as for every hash in Cave.
 */

/** The hash `toolHashes` pins a tool's entry by. */
export function toolEntryHash(entry: unknown): string {
  return hashJson(entry);
}

/** The integrity of a lock: the hash of its canonical JSON without `integrity` and `tools`. */
export function lockIntegrity(lock: Readonly<Record<string, unknown>>): string {
  const { integrity: _integrity, tools: _tools, ...header } = lock;
  return hashJson(header);
}

/** A lock with `toolHashes` computed from its tools and `integrity` from the rest, keys in code-unit order. */
export function sealLock(unsealed: Omit<CaveLock, "integrity" | "toolHashes">): CaveLock {
  const toolHashes: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(unsealed.tools).sort())
    toolHashes[name] = toolEntryHash(unsealed.tools[name] as LockedTool);
  const body: Record<string, unknown> = { ...unsealed, toolHashes };
  const integrity = lockIntegrity(body);
  const sealed: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of [...Object.keys(body), "integrity"].sort())
    sealed[key] = key === "integrity" ? integrity : body[key];
  return sealed as unknown as CaveLock;
}
