import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type HashLines, hashLines } from "./hash-lines.js";

/**
 * A lock's header read and parsed alone, and one tool's entry read and parsed on demand, for a lock in the layout cave
 * build writes (compiler/emit/render.ts): keys sorted, so `tools` is the last top-level key and the tools are in name
 * order; two-space indent, so each tool's key is on its own line indented twice, and the file ends with the two
 * closing braces. JSON strings hold no raw line break, so these lines cannot appear inside a value. Start-up reads the
 * file up to the `tools` line and its last bytes; an entry is found by bisecting the tools part by name, reading a few
 * KB per step, so neither depends on the number of tools.
 *
 * Nothing here is trusted: the header is verified against the integrity, and each entry found here against its
 * toolHashes pin before it is used (read-lock.ts), so an entry found in the wrong place is refused, never run. A lock
 * in any other layout gives undefined, and read-lock.ts parses it whole.
 */
export interface SplitLock {
  /** The top-level object without `tools` (made on first read when `byLines` is given). */
  readonly header: Record<string, unknown>;
  /**
   * When the header's `toolHashes` is in cave build's layout: every other key of the header (`rest`, in the file's
   * order; `toolHashes` was its last) and toolHashes read as lines (hash-lines.ts), so the runtime can verify the header
   * without making toolHashes an object.
   */
  readonly byLines?: { readonly rest: Record<string, unknown>; readonly lines: HashLines };
  /**
   * The entry of tool `name` (read and parsed now; value undefined: its bytes are not JSON), or undefined when there is
   * none. `near`, when the caller knows it, is where the name stands among the locked names in order: the entry is then
   * looked for first where an even spread of entries puts it.
   */
  entry(name: string, near?: Place): { readonly value: unknown } | undefined;
}

const TOOLS_LINE = Buffer.from('\n  "tools": {');
const TOOL_KEY_LINE = Buffer.from('\n    "');
const END = Buffer.from("}\n}\n");
const TOOLS_END = Buffer.from("\n  }\n}\n");
const CHUNK = 64 * 1024;
/** Bytes read per bisection step: a few entries of a typical lock. */
const PROBE = 4 * 1024;
/** Entries found by bisection before the tools part is read and indexed at once. */
const BISECTIONS = 8;

/** The header of the lock file at `path` and a reader of its entries, or undefined when it is not in cave build's layout. */
export function splitLock(path: string): SplitLock | undefined {
  const fd = openSync(path, "r");
  let header: Buffer;
  let size: number;
  try {
    size = fstatSync(fd).size;
    // A lock cut short never ends with the closing braces: it is parsed whole, and refused as not JSON.
    if (size < TOOLS_LINE.length + END.length || !readAt(fd, size - END.length, END.length).equals(END))
      return undefined;
    const found = readHeader(fd, size);
    if (found === undefined) return undefined;
    header = found;
  } finally {
    closeSync(fd);
  }
  // The toolHashes part read as lines when it has cave build's layout (the rest parsed), else the whole header parsed.
  const found = hashLines(header);
  const byLines = found !== undefined && header[found.at - 1] === 0x2c ? found : undefined;
  const parsed = parsedObject(header, byLines === undefined ? header.length - 1 : byLines.at - 1);
  if (parsed === undefined || Object.hasOwn(parsed, "tools") || (byLines && Object.hasOwn(parsed, "toolHashes")))
    return undefined;
  // The tools part: from after the `tools` line to before the closing lines.
  const from = header.length + TOOLS_LINE.length;
  const to = size - TOOLS_END.length;
  // A few entries are found by bisection; past that (every tool described, or called once), the tools part is read once
  // and indexed, so reading all of them costs one read of the file, not one bisection each.
  let bisected = 0;
  let index: Map<string, unknown> | undefined;
  const entry = (name: string, near?: Place): { readonly value: unknown } | undefined => {
    if (to <= from) return undefined;
    if (index === undefined && ++bisected <= BISECTIONS)
      return (near && guessedEntry(path, from, to, name, near)) || readEntry(path, from, to, name);
    index ??= indexEntries(path, from, to);
    return index.has(name) ? { value: index.get(name) } : undefined;
  };
  if (byLines === undefined) return { header: parsed, entry };
  const { lines } = byLines;
  let whole: Record<string, unknown> | undefined;
  return {
    get header() {
      return (whole ??= { ...parsed, toolHashes: hashRecord(lines) });
    },
    byLines: { rest: parsed, lines },
    entry,
  };
}

/** The toolHashes object JSON.parse gives for these lines (its names are no array index, so they keep their order). */
export function hashRecord(lines: HashLines): Record<string, string> {
  const record: Record<string, string> = {};
  lines.names.forEach((name, i) => (record[name] = lines.hash(i)));
  return record;
}

/** The header's bytes up to `end` (before a trailing comma) as a JSON object, or undefined when they are not one. */
function parsedObject(header: Buffer, end: number): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(`${header.toString("utf8", 0, end)}\n}`);
  } catch {
    return undefined;
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/** Every entry of the tools part by name, each parsed (undefined: not JSON), from one read of the file. */
function indexEntries(path: string, from: number, to: number): Map<string, unknown> {
  const fd = openSync(path, "r");
  try {
    const bytes = readAt(fd, 0, to + TOOL_KEY_LINE.length);
    const index = new Map<string, unknown>();
    for (let at = bytes.indexOf(TOOL_KEY_LINE, from); at !== -1 && at < to; ) {
      const keyStart = at + TOOL_KEY_LINE.length - 1;
      const colon = bytes.indexOf('": ', keyStart + 1);
      const next = bytes.indexOf(TOOL_KEY_LINE, at + 1);
      const end = next === -1 || next >= to ? to : next;
      let key: unknown;
      try {
        key = colon === -1 || colon > end ? undefined : JSON.parse(bytes.toString("utf8", keyStart, colon + 1));
      } catch {
        key = undefined;
      }
      // The first of two entries with one name is kept: either way, only an entry that hashes to its pin is used.
      // The comma before the next key line is not part of the entry.
      const valueEnd = end !== to && bytes[end - 1] === 0x2c ? end - 1 : end;
      if (typeof key === "string" && !index.has(key))
        index.set(key, parseOr(bytes.toString("utf8", colon + 3, valueEnd)));
      at = next === -1 || next >= to ? -1 : next;
    }
    return index;
  } finally {
    closeSync(fd);
  }
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The bytes before the `tools` line, ending with the comma before it; undefined when there is no such line. */
function readHeader(fd: number, size: number): Buffer | undefined {
  // Read into one buffer that doubles when full: each byte is read once and copied at most once per doubling, where
  // joining every chunk read so far after each read copied a 120 KB header's first chunk twice (fresh memory is dear
  // at start-up: docs/benchmarks.md).
  let buffer = Buffer.allocUnsafe(Math.min(CHUNK, size));
  let length = 0;
  while (length < size) {
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, size));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, Math.min(CHUNK, buffer.length - length), length);
    if (read === 0) return undefined;
    length += read;
    // The first such line: a header in this layout holds none (its own "tools" keys are indented deeper).
    const at = buffer.subarray(0, length).indexOf(TOOLS_LINE, Math.max(0, length - read - TOOLS_LINE.length));
    if (at !== -1) return at > 0 && buffer[at - 1] === 0x2c ? buffer.subarray(0, at) : undefined;
  }
  return undefined;
}

/** Where a name stands among `of` sorted names: `index` names come before it. */
export interface Place {
  readonly index: number;
  readonly of: number;
}

/** Key lines read forward from the guess before giving up on it. */
const GUESS_STEPS = 3;

/**
 * Tool `name`'s entry found where its place puts it if the entries were all of one size: the first key line from half an
 * average entry before that point, then forward a few. Generated entries differ little in size, so this is usually one
 * key line (two reads) where bisection reads ~2 per halving of the tools part; undefined when it is not there, and the
 * caller bisects.
 */
function guessedEntry(
  path: string,
  from: number,
  to: number,
  name: string,
  near: Place,
): { readonly value: unknown } | undefined {
  const size = (to - from) / near.of;
  const fd = openSync(path, "r");
  try {
    let line = keyLineFrom(fd, Math.max(from, Math.floor(from + size * near.index - size / 2)), to);
    for (let step = 0; line !== undefined && step < GUESS_STEPS; step++) {
      if (line.key === name) return entryAt(fd, line, to);
      if (line.key > name) return undefined;
      line = keyLineFrom(fd, line.at + 1, to);
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Tool `name`'s entry, bisecting the tools part (sorted by name) for its key line, then reading to the next one. */
function readEntry(path: string, from: number, to: number, name: string): { readonly value: unknown } | undefined {
  const fd = openSync(path, "r");
  try {
    let lo = from - 1;
    let hi = to;
    // Invariant: every key line starting before lo + 1 has a key < name; none starting at or after hi is needed.
    while (lo + 1 < hi) {
      const mid = Math.floor((lo + 1 + hi) / 2);
      const line = keyLineFrom(fd, mid, to);
      if (line === undefined) {
        hi = mid;
        continue;
      }
      if (line.key === name) return entryAt(fd, line, to);
      if (line.key < name) lo = line.at;
      else hi = mid;
    }
    // Not where name order puts it: tools out of order (a lock cave build did not write) are read one by one.
    for (let line = keyLineFrom(fd, from, to); line !== undefined; line = keyLineFrom(fd, line.at + 1, to)) {
      if (line.key === name) return entryAt(fd, line, to);
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

interface KeyLine {
  /** Where the line break before the key is. */
  readonly at: number;
  readonly key: string;
  /** Where the entry's value starts (after `": `). */
  readonly value: number;
}

/** The first tool key line whose line break is at or after `start` (and before `to`). */
function keyLineFrom(fd: number, start: number, to: number): KeyLine | undefined {
  // Chunks overlap by the line's length, so a key line across two chunks is found.
  for (let position = start; position < to; position += PROBE - TOOL_KEY_LINE.length) {
    const chunk = readAt(fd, position, Math.min(PROBE, to + TOOL_KEY_LINE.length - position));
    const found = chunk.indexOf(TOOL_KEY_LINE);
    if (found === -1) continue;
    const at = position + found;
    if (at >= to) return undefined;
    // The key: a JSON string on that line, up to `": ` (tool names hold no quote; anything else fails to parse).
    const line = readAt(fd, at + TOOL_KEY_LINE.length - 1, 1024);
    const colon = line.indexOf('": ');
    if (colon === -1) return undefined;
    let key: unknown;
    try {
      key = JSON.parse(line.toString("utf8", 0, colon + 1));
    } catch {
      return undefined;
    }
    return typeof key === "string" ? { at, key, value: at + TOOL_KEY_LINE.length - 1 + colon + 3 } : undefined;
  }
  return undefined;
}

/** The value after a key line, up to the next key line (without its comma) or the end of the tools part. */
function entryAt(fd: number, line: KeyLine, to: number): { readonly value: unknown } {
  const next = keyLineFrom(fd, line.at + 1, to);
  let end = next === undefined ? to : next.at;
  const bytes = readAt(fd, line.value, end - line.value);
  if (next !== undefined && bytes[bytes.length - 1] === 0x2c) end--;
  try {
    return { value: JSON.parse(bytes.toString("utf8", 0, end - line.value)) };
  } catch {
    // Not JSON where an entry should be: an entry that is not what was built (its hash cannot match).
    return { value: undefined };
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(Math.max(length, 0));
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}
