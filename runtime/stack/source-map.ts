/** The inline source map a staged bundle ends with (compiler/stage/source-map.ts writes it). */
const INLINE_MAP_PREFIX = "//# sourceMappingURL=data:application/json;base64,";

/** A position in an original file: its canonical id (a project-relative path) and 1-based line and column. */
export interface OriginalPosition {
  readonly source: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The decoded mappings of one bundle, for looking up where a stack frame's line and column came from. Decoded once,
 * when a stack first needs it (never on the happy path): per generated line, its segments as flat
 * [generated column, source index, original line, original column] quadruples.
 */
export class BundleMap {
  private constructor(
    private readonly sources: readonly string[],
    private readonly lines: readonly Int32Array[],
  ) {}

  /** The map a bundle's text ends with, or undefined when it has none (a bundle from an older build) or it cannot be read. */
  static fromBundle(code: string): BundleMap | undefined {
    const at = code.lastIndexOf(`\n${INLINE_MAP_PREFIX}`);
    if (at < 0) return undefined;
    const end = code.indexOf("\n", at + 1);
    try {
      const map = JSON.parse(
        Buffer.from(code.slice(at + 1 + INLINE_MAP_PREFIX.length, end < 0 ? undefined : end), "base64").toString(
          "utf8",
        ),
      ) as { sources?: unknown; mappings?: unknown };
      if (
        !Array.isArray(map.sources) ||
        !map.sources.every((s) => typeof s === "string") ||
        typeof map.mappings !== "string"
      )
        return undefined;
      return new BundleMap(map.sources as string[], decodeMappings(map.mappings));
    } catch {
      return undefined;
    }
  }

  /** Where 1-based `line` and `column` of the bundle came from: the last segment at or before the column on that line. */
  at(line: number, column: number): OriginalPosition | undefined {
    const segments = this.lines[line - 1];
    if (segments === undefined || segments.length === 0) return undefined;
    let found = -1;
    for (let i = 0; i < segments.length && segments[i]! <= column - 1; i += 4) found = i;
    // A frame's column before the line's first mapping (indentation) belongs to the first.
    if (found < 0) found = 0;
    const source = this.sources[segments[found + 1]!];
    return source === undefined
      ? undefined
      : { source, line: segments[found + 2]! + 1, column: segments[found + 3]! + 1 };
  }
}

const BASE64 = new Map(
  [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((char, index) => [char, index]),
);

/** Source map v3 mappings: per line, segments of base64 VLQ deltas; source, line and column run on across lines. */
function decodeMappings(mappings: string): Int32Array[] {
  const lines: Int32Array[] = [];
  let source = 0;
  let originalLine = 0;
  let originalColumn = 0;
  for (const line of mappings.split(";")) {
    const out: number[] = [];
    let column = 0;
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const fields = decodeVlq(segment);
      column += fields[0] ?? 0;
      // A one-field segment maps nothing.
      if (fields.length < 4) continue;
      source += fields[1]!;
      originalLine += fields[2]!;
      originalColumn += fields[3]!;
      out.push(column, source, originalLine, originalColumn);
    }
    lines.push(Int32Array.from(out));
  }
  return lines;
}

function decodeVlq(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.get(char);
    if (digit === undefined) throw new Error("not a base64 VLQ digit");
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  return fields;
}
