/**
 * A lock's header parsed alone, and its tools' entries found without parsing them, for a lock in the layout cave build
 * writes (compiler/emit/render.ts): keys sorted, so `tools` is the last top-level key; two-space indent, so each tool's
 * key is on its own line indented twice, and the file ends with the two closing braces. JSON strings hold no raw line
 * break, so these lines cannot appear inside a value.
 *
 * Nothing here is trusted: the header is verified against the integrity, and each entry found here against its
 * toolHashes pin before it is used (read-lock.ts), so an entry found in the wrong place is refused, never run. A lock
 * in any other layout gives undefined, and read-lock.ts parses it whole.
 */
export interface SplitLock {
  /** The top-level object without `tools`. */
  readonly header: Record<string, unknown>;
  /** The entry of tool `name` (parsed now), or undefined when the lock has no entry of that name. */
  entry(name: string): { readonly value: unknown } | undefined;
}

const TOOLS_LINE = Buffer.from('\n  "tools": {');
const TOOL_KEY_LINE = Buffer.from('\n    "');
const END = Buffer.from("}\n}\n");
const NO_TOOLS_END = Buffer.from('\n  "tools": {}\n}\n');

export function splitLock(bytes: Buffer): SplitLock | undefined {
  // A lock cut short never ends with the closing braces: it is parsed whole, and refused as not JSON.
  if (bytes.length < END.length || bytes.compare(END, 0, END.length, bytes.length - END.length) !== 0) return undefined;
  const at = bytes.lastIndexOf(TOOLS_LINE);
  if (at < 1 || bytes[at - 1] !== 0x2c) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(`${bytes.toString("utf8", 0, at - 1)}\n}`);
  } catch {
    return undefined;
  }
  if (typeof header !== "object" || header === null || Array.isArray(header) || Object.hasOwn(header, "tools")) return undefined;
  const empty = bytes.length - at === NO_TOOLS_END.length && bytes.compare(NO_TOOLS_END, 0, NO_TOOLS_END.length, at) === 0;
  let ranges: Map<string, readonly [number, number]> | undefined;
  return {
    header: header as Record<string, unknown>,
    entry: (name) => {
      if (empty) return undefined;
      ranges ??= entryRanges(bytes, at + TOOLS_LINE.length);
      const range = ranges.get(name);
      if (range === undefined) return undefined;
      try {
        return { value: JSON.parse(bytes.toString("utf8", range[0], range[1])) };
      } catch {
        // Not JSON where an entry should be: an entry that is not what was built (its hash cannot match).
        return { value: undefined };
      }
    },
  };
}

/**
 * Where each tool's entry is: from after `"<name>": ` to its line's end before the next tool's key (without the comma),
 * the last one up to the tools object's closing line. One scan of the tools' part, on the first entry read.
 */
function entryRanges(bytes: Buffer, from: number): Map<string, readonly [number, number]> {
  const starts: number[] = [];
  for (let at = bytes.indexOf(TOOL_KEY_LINE, from); at !== -1; at = bytes.indexOf(TOOL_KEY_LINE, at + TOOL_KEY_LINE.length)) starts.push(at);
  const ranges = new Map<string, readonly [number, number]>();
  const toolsEnd = bytes.length - "\n  }\n}\n".length;
  for (let i = 0; i < starts.length; i++) {
    const keyStart = starts[i]! + TOOL_KEY_LINE.length - 1;
    const colon = bytes.indexOf('": ', keyStart + 1);
    if (colon === -1) break;
    let end = i + 1 < starts.length ? starts[i + 1]! : toolsEnd;
    if (i + 1 < starts.length && bytes[end - 1] === 0x2c) end--;
    let name: unknown;
    try {
      name = JSON.parse(bytes.toString("utf8", keyStart, colon + 1));
    } catch {
      continue;
    }
    // The first of two entries with one name is kept: either way, only an entry that hashes to its pin is used.
    if (typeof name === "string" && !ranges.has(name)) ranges.set(name, [colon + 3, end]);
  }
  return ranges;
}
