/**
 * Characters that must never reach a terminal raw from text Cave prints: C0 controls but tab and
 * newline (ESC starts the sequences that move the cursor, erase lines or rewrite the title; CR
 * overwrites a line from its start), DEL, the C1 controls (U+009B is an 8-bit CSI), the bidi
 * controls that reorder what a reviewer reads, and the Unicode line and paragraph separators.
 */
const UNSAFE =
  "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]";

/** The colour and weight sequences Cave's own styler emits (io.ts), and nothing else. */
const OWN_STYLE = "\\u001b\\[(?:1|2|22|31|32|33|36|39)m";

const WITH_STYLE = new RegExp(`${OWN_STYLE}|${UNSAFE}`, "g");
const ALL = new RegExp(UNSAFE, "g");

/**
 * `text` with every unsafe character shown as a `\uXXXX` escape: visible in a terminal, and inside a
 * JSON string the same value (so --json output parses to exactly what it held). With `colour`, the
 * styler's own sequences pass; a description can at most colour its own text, never move or erase.
 */
export function escapeControls(text: string, colour: boolean): string {
  return text.replace(colour ? WITH_STYLE : ALL, (match) =>
    match.length > 1 ? match : `\\u${match.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
