import { readFile } from "node:fs/promises";
import { toDictionary } from "../../src/contract/dictionary.js";
import { JsonTooDeepError, MAX_JSON_DEPTH } from "../../src/contract/hash.js";
import { LOCKFILE_VERSION, type LockedTool, type LockHeader } from "../../src/contract/lock.js";
import { lockIntegrity, toolEntryHash } from "../../src/contract/lock-seal.js";
import { RuntimeError } from "../errors.js";
import { needsOsLayer } from "../sandbox/os-only.js";
import { checkLockTopShape, checkToolShape } from "./check-shape.js";
import { splitLock, type SplitLock } from "./split-lock.js";

/**
 * A lock as the runtime holds it: the header (everything but the tools' entries), verified before anything runs, and
 * each tool's entry, verified the first time it is read. What it says is what is there: an entry is read through
 * tool(), which may refuse that one tool, never through a property that throws.
 */
export interface RuntimeLock extends LockHeader {
  /** The locked tool names (the keys of toolHashes), sorted. */
  readonly toolNames: readonly string[];
  /** Whether a tool of this name is locked. */
  has(name: string): boolean;
  /**
   * The tool's entry, undefined when no such tool is locked. On its first read the entry is hashed and compared with
   * its toolHashes pin (a difference is LOCK_MISMATCH: it is not what cave build wrote) and shape-checked (LOCK_INVALID);
   * either refuses this tool only, every time it is read.
   */
  tool(name: string): LockedTool | undefined;
}

/**
 * Reads a lock and verifies its header: it exists, is JSON, has the lockfileVersion this runtime reads (checked first:
 * another version is sealed differently), its integrity matches the canonical JSON of everything but `tools` (which
 * pins each entry by its hash in `toolHashes`), and that part has the v2 shape. No tool's entry is parsed here.
 *
 * The header is found without parsing the entries where the lock has the layout cave build writes (split-lock.ts);
 * any other JSON (reformatted, CRLF line endings) is parsed whole, and verified the same way. `shown` is the lock's
 * path relative to the root, the only form a message may use.
 */
export async function readLock(absolutePath: string, shown: string): Promise<RuntimeLock> {
  let split: SplitLock;
  try {
    split = splitLock(absolutePath) ?? parsedWhole(await readFile(absolutePath), shown);
  } catch (thrown) {
    if (thrown instanceof RuntimeError) throw thrown;
    const code = (thrown as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new RuntimeError("LOCK_NOT_FOUND", `${shown} does not exist; run cave build in the project root, or pass root and lock to createRuntime()`);
    throw new RuntimeError("LOCK_NOT_FOUND", `${shown} could not be read (${typeof code === "string" ? code : "read error"}); check that the runtime may read it`);
  }
  const header = split.header;
  checkVersion(header, shown);
  const { integrity } = header;
  if (typeof integrity !== "string") throw new RuntimeError("LOCK_INVALID", `${shown} has no integrity hash; regenerate it with cave build`);
  const actual = hashOrRefuse(() => lockIntegrity(header), shown, "");
  if (actual !== integrity) {
    throw new RuntimeError("LOCK_MISMATCH", `${shown} does not match its integrity hash (it says ${integrity}, its content hashes to ${actual}): it was edited after cave build; regenerate it with cave build`);
  }
  const hashes = header.toolHashes;
  const names = typeof hashes === "object" && hashes !== null && !Array.isArray(hashes) ? Object.keys(hashes) : [];
  const locked = new Set(names);
  const problem = checkLockTopShape(header, locked);
  if (problem !== undefined) throw invalid(shown, problem);
  return runtimeLock(header as unknown as LockHeader, [...names].sort(), split, shown);
}

/** The general path: the whole text parsed, with the errors a user sees. */
function parsedWhole(bytes: Buffer, shown: string): SplitLock {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new RuntimeError("LOCK_INVALID", `${shown} is not valid JSON (or was cut short); regenerate it with cave build and never edit it by hand`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new RuntimeError("LOCK_INVALID", `${shown} is not a JSON object; regenerate it with cave build`);
  const { tools, ...header } = parsed as Record<string, unknown>;
  if (header.lockfileVersion === LOCKFILE_VERSION && (typeof tools !== "object" || tools === null || Array.isArray(tools))) throw invalid(shown, "tools must be an object");
  const entries = tools as Record<string, unknown>;
  return { header, entry: (name) => (Object.hasOwn(entries, name) ? { value: entries[name] } : undefined) };
}

function checkVersion(header: Record<string, unknown>, shown: string): void {
  const version = header.lockfileVersion;
  if (version === LOCKFILE_VERSION) return;
  if (version === 1) {
    // A lock v1 is sealed by one hash over every entry; this runtime verifies entries one by one (docs/decisions.md).
    throw new RuntimeError("LOCK_VERSION_UNSUPPORTED", `${shown} has lockfileVersion 1, written by an earlier cave build, but this runtime reads lockfileVersion ${LOCKFILE_VERSION}; run cave build with this cave version (the same sources give a lockfileVersion ${LOCKFILE_VERSION} lock; cave diff shows the two side by side) and deploy the new lock with its build folder`);
  }
  const found = typeof version === "number" ? `lockfileVersion ${version}` : "no numeric lockfileVersion";
  throw new RuntimeError("LOCK_VERSION_UNSUPPORTED", `${shown} has ${found}, but this runtime reads lockfileVersion ${LOCKFILE_VERSION}; build with the cave version you deploy, or upgrade the runtime`);
}

/** The verified header, with each entry read, verified and kept on first use (a refusal is kept too: same answer, no re-hashing). */
function runtimeLock(header: LockHeader, toolNames: readonly string[], split: SplitLock, shown: string): RuntimeLock {
  const hashes = header.toolHashes;
  const osLayer = new Set(header.osLayerTools);
  const locked = new Set(toolNames);
  const read = new Map<string, LockedTool | RuntimeError>();
  const verified = (name: string): LockedTool | RuntimeError => {
    let found: { readonly value: unknown } | undefined;
    try {
      found = split.entry(name);
    } catch {
      return new RuntimeError("LOCK_MISMATCH", `${shown} could not be read again for the entry of tool ${JSON.stringify(name)} (it was moved or removed after start-up); deploy the lock and its build folder unchanged, and restart`);
    }
    if (found === undefined) {
      return new RuntimeError("LOCK_MISMATCH", `${shown} has no entry for tool ${JSON.stringify(name)}, which its toolHashes pins: the lock was cut short or edited after cave build; regenerate it with cave build and deploy it unchanged (the other tools still run)`);
    }
    const pinned = hashes[name]!;
    let actual: string;
    try {
      // undefined: the bytes where its entry is are not JSON (split-lock.ts), so they hash to nothing.
      actual = found.value === undefined ? "(not JSON)" : hashOrRefuse(() => toolEntryHash(found.value), shown, ` (tool ${JSON.stringify(name)})`);
    } catch (thrown) {
      if (thrown instanceof RuntimeError) return thrown;
      throw thrown;
    }
    if (actual !== pinned) {
      return new RuntimeError("LOCK_MISMATCH", `${shown}: the entry of tool ${JSON.stringify(name)} does not match its hash in toolHashes (it says ${pinned}, the entry hashes to ${actual}): it was edited after cave build, so this tool is not run; regenerate the lock with cave build and deploy it unchanged (the other tools still run)`);
    }
    const problem = checkToolShape(name, found.value, locked) ?? (needsOsLayer(found.value as LockedTool) !== osLayer.has(name) ? `osLayerTools must name ${name} exactly when its sandbox holds a power only the OS layer enforces` : undefined);
    if (problem !== undefined) return invalid(shown, problem);
    return withFileDictionary(found.value);
  };
  const { agents, ...rest } = header;
  return Object.freeze({
    ...rest,
    agents: toDictionary(agents as Record<string, unknown>) as LockHeader["agents"],
    toolNames: Object.freeze(toolNames),
    has: (name: string) => locked.has(name),
    tool: (name: string): LockedTool | undefined => {
      if (!locked.has(name)) return undefined;
      let entry = read.get(name);
      if (entry === undefined) read.set(name, (entry = verified(name)));
      if (entry instanceof RuntimeError) throw new RuntimeError(entry.code, entry.message);
      return entry;
    },
  });
}

/** A hash of lock content, with content nested past MAX_JSON_DEPTH (which cave build never writes) refused as LOCK_INVALID. */
function hashOrRefuse(hash: () => string, shown: string, what: string): string {
  try {
    return hash();
  } catch (thrown) {
    if (thrown instanceof JsonTooDeepError) throw new RuntimeError("LOCK_INVALID", `${shown}${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep, which cave build never writes; regenerate it with cave build`);
    throw thrown;
  }
}

/** A checked tool entry whose source files (keyed by path) are a prototype-free record. */
function withFileDictionary(entry: unknown): LockedTool {
  const tool = entry as { source: { files: Record<string, string> } };
  return { ...tool, source: { ...tool.source, files: toDictionary(tool.source.files) } } as unknown as LockedTool;
}

function invalid(shown: string, problem: string): RuntimeError {
  return new RuntimeError("LOCK_INVALID", `${shown} is not a valid lockfileVersion ${LOCKFILE_VERSION} lock: ${problem}; regenerate it with cave build`);
}
