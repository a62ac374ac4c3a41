import { readFile } from "node:fs/promises";
import { toDictionary } from "../../src/contract/dictionary.js";
import { sha256 } from "../../src/contract/hash.js";
import { LOCKFILE_VERSION, type LockedTool, type LockHeader } from "../../src/contract/lock.js";
import { RuntimeError } from "../errors.js";
import { needsOsLayer } from "../sandbox/os-only.js";
import { checkLockTopShape, checkToolShape } from "./check-shape.js";
import { entryProblem, integrityProblem, versionProblem } from "./inspect.js";
import { lockRuntimeError, type LockProblem } from "./problems.js";
import type { HashLines } from "./hash-lines.js";
import { hashRecord, splitLock, type SplitLock } from "./split-lock.js";

/** A verified header's fields but toolHashes (the runtime reads a pin through toolHash(), and makes the object on demand). */
type HeaderFacts = Omit<LockHeader, "toolHashes">;
type Pins = LockHeader["toolHashes"];

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
  /** The hash toolHashes pins tool `name`'s entry by, undefined when no such tool is locked. */
  toolHash(name: string): string | undefined;
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
    throw lockRuntimeError(
      code === "ENOENT" || code === "ENOTDIR"
        ? { kind: "absent" }
        : { kind: "unreadable", reason: typeof code === "string" ? code : "read error" },
      shown,
    );
  }
  const byLines = split.byLines === undefined ? undefined : sealedByLines(split.byLines.rest, split.byLines.lines);
  if (byLines !== undefined)
    return runtimeLock(byLines.header, byLines.hashOf, split.byLines!.lines.names, split, shown, byLines.record);
  // Any other header, or one the lines do not verify: the whole header as one object, checked as it always was.
  const header = split.header;
  const hashes = header.toolHashes;
  const names = typeof hashes === "object" && hashes !== null && !Array.isArray(hashes) ? Object.keys(hashes) : [];
  const problem =
    versionProblem(header, [LOCKFILE_VERSION]) ?? sealedProblem(header, checkLockTopShape(header, new Set(names)));
  if (problem !== undefined) throw lockRuntimeError(problem, shown);
  const pins = hashes as Record<string, string>;
  return runtimeLock(header as unknown as HeaderFacts, (name) => pins[name]!, [...names].sort(), split, shown, pins);
}

/**
 * A header whose toolHashes was read as lines (hash-lines.ts), verified without making it an object: the version, the
 * shape of the rest (toolHashes' own shape is what its lines were checked for) with every name the lines hold locked,
 * and the seal over the rest's JSON.stringify text with the lines' compact JSON as its last key, hashed as bytes. Only
 * a header that passes all of them is taken; any problem is left to the general path, which finds and words it.
 */
function sealedByLines(
  rest: Record<string, unknown>,
  lines: HashLines,
):
  | { readonly header: HeaderFacts; readonly hashOf: (name: string) => string; readonly record: () => Pins }
  | undefined {
  if (versionProblem(rest, [LOCKFILE_VERSION]) !== undefined) return undefined;
  if (checkLockTopShape({ ...rest, toolHashes: {} }, new Set(lines.names)) !== undefined) return undefined;
  const { integrity, tools: _tools, ...sealed } = rest;
  const before = JSON.stringify(sealed);
  if (typeof integrity !== "string") return undefined;
  const text = Buffer.concat([
    Buffer.from(`${before.slice(0, -1)},"toolHashes":`, "utf8"),
    Buffer.from(lines.compact, "latin1"),
    CLOSING_BRACE,
  ]);
  if (sha256(text) !== integrity) return undefined;
  const { names } = lines;
  return {
    header: rest as unknown as HeaderFacts,
    hashOf: (name) => lines.hash(sortedIndex(names, name)),
    record: () => hashRecord(lines),
  };
}

const CLOSING_BRACE = Buffer.from("}");

/** Where `name` is in the sorted `names` (it is there: callers ask only for locked names). */
function sortedIndex(names: readonly string[], name: string): number {
  let lo = 0;
  let hi = names.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]! < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The general path: the whole text parsed, with the errors a user sees. */
function parsedWhole(bytes: Buffer, shown: string): SplitLock {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw lockRuntimeError({ kind: "not-json" }, shown);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw lockRuntimeError({ kind: "not-object" }, shown);
  const { tools, ...header } = parsed as Record<string, unknown>;
  if (
    header.lockfileVersion === LOCKFILE_VERSION &&
    (typeof tools !== "object" || tools === null || Array.isArray(tools))
  )
    throw lockRuntimeError({ kind: "shape", detail: "tools must be an object" }, shown);
  const entries = tools as Record<string, unknown>;
  return { header, entry: (name) => (Object.hasOwn(entries, name) ? { value: entries[name] } : undefined) };
}

/**
 * The integrity, then the shape (the shape checked first, its problem reported second). A header of the v2 shape whose
 * JSON.stringify text hashes to its integrity is what was sealed: that text is then the sealed canonical JSON, so the
 * canonical walk (inspect.ts, lock-seal.ts), which would give the same answer, is skipped; cave build writes the header's
 * keys in canonical order, so this is the case of every lock it wrote. Any other header takes the general path.
 */
function sealedProblem(header: Record<string, unknown>, shape: string | undefined): LockProblem | undefined {
  if (shape === undefined && stringifiedSeal(header)) return undefined;
  return integrityProblem(header) ?? shapeProblem(shape);
}

function stringifiedSeal(header: Record<string, unknown>): boolean {
  const { integrity, tools: _tools, ...sealed } = header;
  return typeof integrity === "string" && sha256(JSON.stringify(sealed)) === integrity;
}

function shapeProblem(detail: string | undefined): LockProblem | undefined {
  return detail === undefined ? undefined : { kind: "shape", detail };
}

/** The verified header, with each entry read, verified and kept on first use (a refusal is kept too: same answer, no re-hashing). */
function runtimeLock(
  header: HeaderFacts,
  pinOf: (name: string) => string,
  toolNames: readonly string[],
  split: SplitLock,
  shown: string,
  pins: Pins | (() => Pins),
): RuntimeLock {
  const osLayer = new Set(header.osLayerTools);
  const locked = new Set(toolNames);
  const read = new Map<string, LockedTool | RuntimeError>();
  const verified = (name: string): LockedTool | RuntimeError => {
    let found: { readonly value: unknown } | undefined;
    try {
      found = split.entry(name, { index: sortedIndex(toolNames, name), of: toolNames.length });
    } catch {
      return lockRuntimeError({ kind: "entry-unreadable", tool: name }, shown);
    }
    const problem =
      entryProblem(name, pinOf(name), found) ??
      shapeProblem(
        checkToolShape(name, found!.value, locked) ??
          (needsOsLayer(found!.value as LockedTool) !== osLayer.has(name)
            ? `osLayerTools must name ${name} exactly when its sandbox holds a power only the OS layer enforces`
            : undefined),
      );
    return problem === undefined ? withFileDictionary(found!.value) : lockRuntimeError(problem, shown);
  };
  const { agents, toolHashes: _pins, ...rest } = header as HeaderFacts & { toolHashes?: unknown };
  let record = typeof pins === "function" ? undefined : pins;
  const lock = {
    ...rest,
    agents: toDictionary(agents as Record<string, unknown>) as LockHeader["agents"],
    toolNames: Object.freeze(toolNames),
    has: (name: string) => locked.has(name),
    toolHash: (name: string) => (locked.has(name) ? pinOf(name) : undefined),
    tool: (name: string): LockedTool | undefined => {
      if (!locked.has(name)) return undefined;
      let entry = read.get(name);
      if (entry === undefined) read.set(name, (entry = verified(name)));
      if (entry instanceof RuntimeError) throw new RuntimeError(entry.code, entry.message);
      return entry;
    },
  };
  // The pins as one object only when something asks for it (toolHash() is how the runtime reads them).
  Object.defineProperty(lock, "toolHashes", {
    enumerable: true,
    get: () => (record ??= (pins as () => Pins)()),
  });
  return Object.freeze(lock) as unknown as RuntimeLock;
}

/** A checked tool entry whose source files (keyed by path) are a prototype-free record. */
function withFileDictionary(entry: unknown): LockedTool {
  const tool = entry as { source: { files: Record<string, string> } };
  return { ...tool, source: { ...tool.source, files: toDictionary(tool.source.files) } } as unknown as LockedTool;
}
