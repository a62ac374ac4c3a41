import { readFile } from "node:fs/promises";
import { dictionary, toDictionary } from "../../src/contract/dictionary.js";
import { canonicalJson, JsonTooDeepError, MAX_JSON_DEPTH, sha256 } from "../../src/contract/hash.js";
import { LOCKFILE_VERSION, type CaveLock, type LockedTool } from "../../src/contract/lock.js";
import { RuntimeError } from "../errors.js";
import { checkLockTopShape, checkToolShape } from "./check-shape.js";
import { compactLock, type CompactLock, type Member } from "./compact-text.js";

/**
 * Reads and verifies a lock before anything runs: it exists, is JSON, has a lockfileVersion this
 * runtime knows (checked first: another version may hash differently), its integrity matches its
 * canonical content, and its top level has the v1 shape. Each tool's entry is parsed and
 * shape-checked when it is first read (a call, toolDeclarations(), verifyAll()): a malformed entry
 * is LOCK_INVALID then, for that tool. `shown` is the lock's path relative to the root, the only
 * form a message may use.
 *
 * Two ways to the same result. A lock as cave build wrote it is checked on its compact bytes
 * (compact-text.ts: whitespace outside strings removed), which are its canonical form: hashing them
 * proves it, and only the small top level is parsed. Anything else (whitespace inside a number, keys
 * out of order, a hash mismatch to report) takes the general path: parse it all, canonicalise, hash.
 */
export async function readLock(absolutePath: string, shown: string): Promise<CaveLock> {
  let bytes: Buffer;
  try {
    bytes = await readFile(absolutePath);
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new RuntimeError("LOCK_NOT_FOUND", `${shown} does not exist; run cave build in the project root, or pass root and lock to createRuntime()`);
    throw new RuntimeError("LOCK_NOT_FOUND", `${shown} could not be read (${typeof code === "string" ? code : "read error"}); check that the runtime may read it`);
  }
  return fromCompact(bytes, shown) ?? fromText(bytes.toString("utf8"), shown);
}

/** The fast path: the lock if its compact bytes are its canonical form and hash to its integrity, else undefined. */
function fromCompact(bytes: Buffer, shown: string): CaveLock | undefined {
  const compact = compactLock(bytes);
  if (compact === undefined || compact.tools === undefined) return undefined;
  const text = compact.bytes;
  let integrityAt = -1;
  const topParts: string[] = [];
  for (let k = 0; k < compact.members.length; k++) {
    const member = compact.members[k]!;
    const key = keyOf(text, member);
    if (key === undefined) return undefined;
    if (key === "integrity") {
      if (integrityAt !== -1) return undefined;
      integrityAt = k;
    }
    // The tools' entries stay unparsed; the top level is parsed with an empty tools object.
    topParts.push(key === "tools" ? `${text.toString("utf8", member.start, member.colon + 1)}{}` : text.toString("utf8", member.start, member.end));
  }
  let top: Record<string, unknown>;
  try {
    top = JSON.parse(`{${topParts.join(",")}}`) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (top.lockfileVersion !== LOCKFILE_VERSION || integrityAt === -1 || typeof top.integrity !== "string") return undefined;
  if (sha256(withoutMember(compact, integrityAt)) !== top.integrity) return undefined;

  const names: string[] = [];
  for (const member of compact.tools) {
    const name = keyOf(text, member);
    if (name === undefined) return undefined;
    names.push(name);
  }
  const entry = (i: number): unknown => {
    const member = compact.tools![i]!;
    return JSON.parse(text.toString("utf8", member.colon + 1, member.end));
  };
  return withLazyTools(top, names, entry, shown);
}

/** The general path: any JSON the lock may be, with the errors a user sees. */
function fromText(text: string, shown: string): CaveLock {
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
  // JSON.stringify keeps the parsed key order; a match proves that order was canonical. Otherwise canonicalise.
  const actual = sha256(JSON.stringify(body)) === integrity ? integrity : sha256(canonicalOrRefuse(body, shown));
  if (actual !== integrity) {
    throw new RuntimeError("LOCK_MISMATCH", `${shown} does not match its integrity hash (it says ${integrity}, its content hashes to ${actual}): it was edited after cave build; regenerate it with cave build`);
  }

  const tools = lock.tools;
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) throw invalid(shown, checkLockTopShape(lock, new Set()) ?? "tools must be an object");
  const names = Object.keys(tools);
  const entries = Object.values(tools);
  return withLazyTools(lock, names, (i) => entries[i], shown);
}

/** canonicalJson, with a lock nested past MAX_JSON_DEPTH (which cave build never writes) refused as LOCK_INVALID. */
function canonicalOrRefuse(body: unknown, shown: string): string {
  try {
    return canonicalJson(body);
  } catch (thrown) {
    if (thrown instanceof JsonTooDeepError) throw new RuntimeError("LOCK_INVALID", `${shown} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep, which cave build never writes; regenerate it with cave build`);
    throw thrown;
  }
}

/**
 * The lock with `tools` replaced by an object whose entries are parsed and checked on first read,
 * then kept. The top level is checked now.
 *
 * A Proxy over an object of placeholders, not 1,000 accessor properties: defining accessors costs
 * ~10 µs each at start-up, a plain property ~0.05 µs, and the trap costs a call well under 0.1 µs.
 * Only reads go through the trap; keys, `in` and Object.hasOwn answer from the placeholders (so
 * does Object.getOwnPropertyDescriptor, which the runtime never uses on a lock: it would show one).
 */
function withLazyTools(top: Record<string, unknown>, names: readonly string[], entry: (i: number) => unknown, shown: string): CaveLock {
  const locked = new Set(names);
  if (locked.size !== names.length) throw invalid(shown, "tools must not name a tool twice");
  // Prototype-free (src/contract/dictionary.ts): a call of "constructor" must not find Object.prototype's.
  const slots: Record<string, unknown> = dictionary();
  for (let i = 0; i < names.length; i++) slots[names[i]!] = new Pending(i);
  /** The checked entry in slot `name` (parsed now unless it was read before). */
  const read = (target: Record<string, unknown>, name: string): unknown => {
    const value = target[name];
    if (!(value instanceof Pending) || !Object.hasOwn(target, name)) return value;
    const parsed = entry(value.index);
    const problem = checkToolShape(name, parsed, locked);
    if (problem !== undefined) throw invalid(shown, problem);
    return withFileDictionary(parsed);
  };
  const tools = new Proxy(slots, {
    get(target, name) {
      const value = target[name as string];
      if (!(value instanceof Pending)) return value;
      const entry$ = read(target, name as string);
      target[name as string] = entry$;
      return entry$;
    },
    // Writes and deletions would bypass the checks; a lock is read-only.
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  }) as Record<string, LockedTool>;
  const agents = top.agents;
  const lock = { ...top, agents: typeof agents === "object" && agents !== null && !Array.isArray(agents) ? toDictionary(agents as Record<string, unknown>) : agents, tools };
  const problem = checkLockTopShape(lock, locked);
  if (problem !== undefined) throw invalid(shown, problem);
  peeks.set(lock, (name) => read(slots, name) as LockedTool);
  return lock as unknown as CaveLock;
}

/** For each lock readLock made: its entry reader that does not keep what it parses. */
const peeks = new WeakMap<object, (name: string) => LockedTool>();

/**
 * A tool's checked entry, as `lock.tools[name]` gives it (LOCK_INVALID thrown the same way), without keeping it in
 * the lock when it was not read before: for a start-up look at every entry (which tools are sandboxed) that must not
 * leave the whole lock parsed in the heap. Measured with 1,000 tools: the parsed entries kept at start-up made every
 * later call's garbage costlier to collect (per call 22–40 µs against 9–15 µs without them; docs/benchmarks.md).
 */
export function peekTool(lock: CaveLock, name: string): LockedTool {
  const peek = peeks.get(lock);
  return peek === undefined ? lock.tools[name]! : peek(name);
}

/** A checked tool entry whose source files (keyed by path) are a prototype-free record. */
function withFileDictionary(entry: unknown): unknown {
  const tool = entry as { source: { files: Record<string, string> } };
  return { ...tool, source: { ...tool.source, files: toDictionary(tool.source.files) } };
}

/** A tool entry not read yet: its index among the lock's tools. */
class Pending {
  constructor(readonly index: number) {}
}

function invalid(shown: string, problem: string): RuntimeError {
  return new RuntimeError("LOCK_INVALID", `${shown} is not a valid lockfileVersion ${LOCKFILE_VERSION} lock: ${problem}; regenerate it with cave build`);
}

/** A member's key, or undefined if it is not a JSON string. */
function keyOf(text: Buffer, member: Member): string | undefined {
  // A key without escapes or control bytes (every tool name) is its bytes between the quotes.
  const end = member.colon - 1;
  if (text[member.start] === 0x22 && text[end] === 0x22 && end > member.start) {
    let plain = true;
    for (let i = member.start + 1; i < end && plain; i++) plain = text[i]! !== 0x5c && text[i]! >= 0x20;
    if (plain) return text.toString("utf8", member.start + 1, end);
  }
  try {
    const key: unknown = JSON.parse(text.toString("utf8", member.start, member.colon));
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The compact bytes of the top-level object without member k and the comma that joined it. */
function withoutMember(compact: CompactLock, k: number): Uint8Array {
  const { bytes, members } = compact;
  const member = members[k]!;
  if (members.length === 1) return Buffer.from("{}");
  // The comma after it, or for the last member the comma before it.
  const [from, to] = k < members.length - 1 ? [member.start, members[k + 1]!.start] : [members[k - 1]!.end, member.end];
  return Buffer.concat([bytes.subarray(0, from), bytes.subarray(to)]);
}
