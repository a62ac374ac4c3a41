import { COMPACT_WASM } from "./compact-wasm.js";

/**
 * A lock's bytes with every whitespace byte outside strings removed, and where the members of its
 * top-level object and of its `tools` object are in them. For a lock cave build wrote (keys sorted,
 * numbers and strings as JSON.stringify writes them), the compact bytes minus the `integrity` member
 * ARE the RFC 8785 canonical form the integrity hash covers, so the runtime can check the hash and
 * then parse one tool's entry at a time, instead of parsing, re-serialising and hashing megabytes.
 *
 * Nothing here trusts the result: a hash match is what proves the bytes are the canonical form. The
 * scan (compact.wat, run as WebAssembly) only has to be exact about what is inside a string (so it
 * never removes a string's byte), and to refuse input whose whitespace separates two tokens that
 * would otherwise run together (`1 2`), so that the compact bytes are never valid JSON that the
 * original bytes were not. Anything it does not recognise is `undefined`: the caller then takes the
 * general path (parse everything, canonicalise).
 */
export interface CompactLock {
  readonly bytes: Buffer;
  /** The top-level object's members, in order. */
  readonly members: readonly Member[];
  /** The members of the top-level `tools` object, in order (undefined: no `tools` key whose value is an object). */
  readonly tools: readonly Member[] | undefined;
}

/** `"key":value` at bytes[start, end); bytes[colon] is its colon. */
export interface Member {
  readonly start: number;
  readonly colon: number;
  readonly end: number;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const TOOLS_KEY = Buffer.from('"tools"');

/** The part of the WebAssembly API used here (the TypeScript libs this package compiles with do not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { memory: { buffer: ArrayBuffer; grow(pages: number): number }; compact(limit: number, n: number, marks: number, cap: number): number } };
}
const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;

/** compact() answers this when it paused at its limit. */
const PAUSED = -2;
/**
 * Bytes per call of compact(). V8 runs WebAssembly baseline-compiled first and swaps in optimised code
 * between calls once a function has done enough work, so one call per slice lets the rest of a large
 * lock run optimised (a 3.7 MB lock: 9–16 ms, against 12–18 ms in one call), at no cost to a small one.
 */
const SLICE = 256 * 1024;

/** Compiled on first use; null when this Node has no WebAssembly (e.g. --jitless): the general path then. */
let compiled: object | null | undefined;

/** The compact form of a lock's bytes and where its members are, or undefined: take the general path. */
export function compactLock(source: Uint8Array): CompactLock | undefined {
  compiled ??= wasm === undefined ? null : new wasm.Module(Buffer.from(COMPACT_WASM, "base64"));
  if (compiled === null || wasm === undefined) return undefined;
  const { memory, compact } = new wasm.Instance(compiled).exports;
  const n = source.length;
  // Marks at depth 1 and 2 only: a few per tool. A lock with more than one per 16 bytes is odd; general path.
  const marksAt = (n + 3) & ~3;
  const cap = (n >> 4) + 64;
  const pages = Math.ceil((marksAt + cap * 4) / 65536) - memory.buffer.byteLength / 65536;
  try {
    if (pages > 0) memory.grow(pages);
  } catch {
    return undefined; // more memory than WebAssembly may have here: the general path decides
  }
  new Uint8Array(memory.buffer).set(source);
  let length = PAUSED;
  for (let limit = SLICE; length === PAUSED; limit += SLICE) length = compact(Math.min(limit, n), n, marksAt, cap);
  if (length < 0) return undefined;
  return findMembers(Buffer.from(memory.buffer, 0, length), new Int32Array(memory.buffer, marksAt, cap));
}

/** The top-level object's members and the tools object's members, from the offsets of the structural bytes at depth 1 and 2. */
function findMembers(bytes: Buffer, marks: Int32Array): CompactLock | undefined {
  if (marks[0] !== 0 || bytes[0] !== OPEN_BRACE) return undefined;
  const members: Member[] = [];
  const tools: Member[] = [];
  let toolsFound = false;
  let toolsObject = false;
  let inTools = false;
  let depth = 0;
  let memberStart = -1;
  let memberColon = -1;
  let toolStart = -1;
  let toolColon = -1;
  for (let k = 0; ; k++) {
    const at = marks[k]!;
    if (at === -1) return undefined;
    const c = bytes[at]!;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth === 1) memberStart = at + 1;
      else if (depth === 2 && inTools) {
        if (c !== OPEN_BRACE) return undefined;
        toolsObject = true;
        toolStart = at + 1;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 1) {
        if (memberStart < at && !endMember(members, memberStart, memberColon, at)) return undefined;
        // The top-level object must end the text.
        if (c !== CLOSE_BRACE || at !== bytes.length - 1 || marks[k + 1] !== -1) return undefined;
        return { bytes, members, tools: toolsObject ? tools : undefined };
      }
      if (depth === 2 && inTools && toolStart < at && !endMember(tools, toolStart, toolColon, at)) return undefined;
      depth--;
    } else if (c === COMMA) {
      if (depth === 1) {
        if (!endMember(members, memberStart, memberColon, at)) return undefined;
        inTools = false;
        memberStart = at + 1;
      } else if (depth === 2 && inTools) {
        if (!endMember(tools, toolStart, toolColon, at)) return undefined;
        toolStart = at + 1;
      }
    } else if (depth === 1) {
      memberColon = at;
      // A second "tools" key is left to the general path (JSON.parse keeps the last one).
      if (at - memberStart === TOOLS_KEY.length && bytes.compare(TOOLS_KEY, 0, TOOLS_KEY.length, memberStart, at) === 0) {
        if (toolsFound) return undefined;
        inTools = true;
        toolsFound = true;
      }
    } else if (depth === 2 && inTools) toolColon = at;
  }
}

/** Records bytes[start, end) as a member if a colon follows its key. */
function endMember(into: Member[], start: number, colon: number, end: number): boolean {
  if (colon <= start || colon >= end) return false;
  into.push({ start, colon, end });
  return true;
}
