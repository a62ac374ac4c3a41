import { readFile } from "node:fs/promises";
import { sha256 } from "../../src/contract/hash.js";
import { LOCKFILE_VERSION, type CaveLock } from "../../src/contract/lock.js";
import { RuntimeError } from "../errors.js";
import { parsedCanonicalJson } from "./canonical-text.js";
import { checkLockShape } from "./check-shape.js";

/**
 * Reads and verifies a lock before anything runs: it exists, is JSON, has a lockfileVersion this
 * runtime knows (checked first: another version may hash differently), its integrity matches its
 * canonical content, and it has the v1 shape. `shown` is the lock's path relative to the root, the
 * only form a message may use.
 */
export async function readLock(absolutePath: string, shown: string): Promise<CaveLock> {
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new RuntimeError("LOCK_NOT_FOUND", `${shown} does not exist; run cave build in the project root, or pass root and lock to createRuntime()`);
    throw new RuntimeError("LOCK_NOT_FOUND", `${shown} could not be read (${typeof code === "string" ? code : "read error"}); check that the runtime may read it`);
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RuntimeError("LOCK_INVALID", `${shown} is not valid JSON; regenerate it with cave build and never edit it by hand`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new RuntimeError("LOCK_INVALID", `${shown} is not a JSON object; regenerate it with cave build`);
  }
  const lock = parsed as Record<string, unknown>;

  if (lock.lockfileVersion !== LOCKFILE_VERSION) {
    const found = typeof lock.lockfileVersion === "number" ? `lockfileVersion ${lock.lockfileVersion}` : "no numeric lockfileVersion";
    throw new RuntimeError("LOCK_VERSION_UNSUPPORTED", `${shown} has ${found}, but this runtime reads lockfileVersion ${LOCKFILE_VERSION}; build with the cave version you deploy, or upgrade the runtime`);
  }

  const { integrity, ...body } = lock;
  if (typeof integrity !== "string") throw new RuntimeError("LOCK_INVALID", `${shown} has no integrity hash; regenerate it with cave build`);
  // hashJson(body), computed from what parsing already gave us (a lock is megabytes at 1,000 tools).
  const actual = sha256(parsedCanonicalJson(body, text));
  if (actual !== integrity) {
    throw new RuntimeError("LOCK_MISMATCH", `${shown} does not match its integrity hash (it says ${integrity}, its content hashes to ${actual}): it was edited after cave build; regenerate it with cave build`);
  }

  const problem = checkLockShape(lock);
  if (problem !== undefined) throw new RuntimeError("LOCK_INVALID", `${shown} is not a valid lockfileVersion ${LOCKFILE_VERSION} lock: ${problem}; regenerate it with cave build`);
  return lock as unknown as CaveLock;
}
