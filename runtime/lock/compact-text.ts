/**
 * A lock's bytes with every whitespace byte outside strings removed, and where the members of its
 * top-level object and of its `tools` object are in them. For a lock cave build wrote (keys sorted,
 * numbers and strings as JSON.stringify writes them), the compact bytes minus the `integrity` member
 * ARE the RFC 8785 canonical form the integrity hash covers, so the runtime can check the hash and
 * then parse one tool's entry at a time, instead of parsing, re-serialising and hashing megabytes.
 *
 * Nothing here trusts the result: a hash match is what proves the bytes are the canonical form. The
 * scan only has to be exact about what is inside a string (so it never removes a string's byte), and
 * to refuse input whose whitespace separates two tokens that would otherwise run together (`1 2`), so
 * that the compact bytes are never valid JSON that the original bytes were not. Anything it does not
 * recognise is `undefined`: the caller then takes the general path (parse everything, canonicalise).
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

export function compactLock(source: Uint8Array): CompactLock | undefined {
  const out = Buffer.allocUnsafe(source.length);
  // Where the structural bytes ({ } [ ] , :) outside strings landed in `out`; a lock has about one per 18 bytes.
  const marks = new Int32Array((source.length >> 3) + 64);
  const length = compactBytes(source, out, marks);
  if (length < 0) return undefined;
  return findMembers(out.subarray(0, length), marks);
}

/**
 * Copies `source` to `out` without the whitespace outside strings, and records in `marks` (ended by
 * -1) the offset in `out` of each structural byte. Returns the length written, or -1: an unterminated
 * string, a control byte outside a string, whitespace between two bytes of numbers or literals, or
 * more structural bytes than `marks` holds. Two passes, this one tight, because V8 optimises a loop
 * with few branches well on its first and only run, and this loop sees every byte of the lock.
 */
function compactBytes(source: Uint8Array, out: Uint8Array, marks: Int32Array): number {
  const n = source.length;
  const lastMark = marks.length - 1;
  let o = 0;
  let i = 0;
  let m = 0;
  let gap = false;
  let afterWord = false;
  while (i < n) {
    const c = source[i++]!;
    // 0x22 is the quote, 0x5c the backslash; whitespace is 0x20, 0x0a, 0x0d and 0x09.
    if (c === 0x20 || c === 0x0a) {
      gap = true;
    } else if (c === 0x22) {
      out[o++] = c;
      for (;;) {
        if (i >= n) return -1;
        const d = source[i++]!;
        out[o++] = d;
        if (d === 0x22) break;
        if (d === 0x5c) {
          if (i >= n) return -1;
          out[o++] = source[i++]!;
        }
      }
      gap = false;
      afterWord = false;
    } else if (c > 0x20) {
      if (c === OPEN_BRACE || c === CLOSE_BRACE || c === OPEN_BRACKET || c === CLOSE_BRACKET || c === COMMA || c === COLON) {
        if (m === lastMark) return -1;
        marks[m++] = o;
        afterWord = false;
      } else {
        // Whitespace separates tokens: "1 2" is not JSON, "12" is; so is "tr ue" against "true".
        if (gap && afterWord) return -1;
        afterWord = true;
      }
      gap = false;
      out[o++] = c;
    } else if (c === 0x0d || c === 0x09) {
      gap = true;
    } else return -1;
  }
  marks[m] = -1;
  return o;
}

/** The top-level object's members and the tools object's members, from the structural bytes' offsets. */
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
