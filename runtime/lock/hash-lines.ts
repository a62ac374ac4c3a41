import { definitions } from "./lock-shape.generated.js";

/**
 * The `toolHashes` part of a lock header in the layout cave build writes (compiler/emit/render.ts), read as lines
 * instead of parsed: it is the header's last key (keys are sorted; `tools` is not part of the header), one tool a
 * line, `    "<name>": "<hash>",`, names in code-unit order. A thousand tools make it ~100 KB, most of the header;
 * parsing it into an object, checking each of its 2,000 strings with the header's validator and writing it out again
 * for the seal were most of createRuntime() and of what it allocated (each young-generation collection that forced cost
 * several ms at start-up).
 *
 * Every line is checked against the lock schema's own patterns for a tool name and a hash (the `name` and `hash`
 * definitions, so the fact stays in one place), names strictly increasing; a block that is anything else gives
 * undefined and the header is parsed whole, as before. So what is read here is exactly what JSON.parse would give: the
 * checked names and hashes hold no escape, quote or space, and the part's compact JSON, over which the seal is
 * computed, is the lines without their indentation and the space after each colon.
 */
export interface HashLines {
  /** The tool names, sorted, distinct, each of the schema's name pattern. */
  readonly names: readonly string[];
  /** The hash pinned for tool `names[i]`, of the schema's hash pattern. */
  hash(i: number): string;
  /** The part's canonical JSON, `{"<name>":"<hash>",...}` (ASCII: its bytes are its Latin-1 text). */
  readonly compact: string;
}

const OPEN = '\n  "toolHashes": {\n';
const CLOSE = "\n  }";
/** The pattern of a definition of the lock schema without its anchors, to be part of a larger one. */
function unanchored(definition: string): string {
  const { pattern } = definitions[definition as "name" | "hash"];
  if (!pattern.startsWith("^") || !pattern.endsWith("$"))
    throw new Error(`the lock schema's ${definition} pattern is not anchored`);
  return `(?:${pattern.slice(1, -1)})`;
}
/** One line of the part, from where the previous one ended: the tool's name, its hash, the comma unless it is the last. */
const LINE = new RegExp(` {4}"${unanchored("name")}": "${unanchored("hash")}"(?:,\n|$)`, "uy");
/** What the part's lines have that its compact JSON has not: each line's break and indentation, the space after a colon. */
const LAYOUT = /\n {4}|(?<=":) /g;

/**
 * Where the `toolHashes` part starts in `header` (the header's bytes up to the comma before the `tools` line), and
 * its lines checked; undefined when the header does not end with such a part.
 */
export function hashLines(header: Buffer): { readonly at: number; readonly lines: HashLines } | undefined {
  const end = header.length - CLOSE.length - 1;
  if (header.toString("latin1", end, header.length) !== `${CLOSE},`) return undefined;
  const at = header.lastIndexOf(OPEN, end);
  if (at === -1) return undefined;
  const block = header.toString("latin1", at + OPEN.length, end);
  // The last line ends with its hash's quote: a comma after it (and what follows) is not JSON, and not for this reader.
  if (!block.endsWith('"')) return undefined;
  const names: string[] = [];
  const starts: number[] = [];
  LINE.lastIndex = 0;
  while (LINE.lastIndex < block.length) {
    const start = LINE.lastIndex;
    if (!LINE.test(block)) return undefined;
    const name = block.slice(start + 5, block.indexOf('"', start + 5));
    if (names.length > 0 && !(names[names.length - 1]! < name)) return undefined;
    names.push(name);
    starts.push(start + 5 + name.length + 4);
  }
  if (names.length === 0) return undefined;
  return {
    at,
    lines: {
      names,
      hash: (i) => block.slice(starts[i], block.indexOf('"', starts[i])),
      compact: `{${block.replace(LAYOUT, "").trimStart()}}`,
    },
  };
}
