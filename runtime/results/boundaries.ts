/** Where a serialised result (canonical JSON text) may be cut without splitting anything. */
export const NOT_SAFE = 0;
/** Between two characters (or escape sequences) inside a string token. */
export const IN_STRING = 1;
/** Between two JSON tokens. */
export const BETWEEN_TOKENS = 2;

/**
 * Marks every cut position of `text` (a cut before index i): between JSON tokens, or inside a string
 * between two of its characters, never inside a number, a literal, an escape sequence or a surrogate
 * pair (so never inside a UTF-8 character). One pass; position 0 and text.length are always safe.
 */
export function safeCuts(text: string): Uint8Array {
  const marks = new Uint8Array(text.length + 1);
  marks[0] = BETWEEN_TOKENS;
  marks[text.length] = BETWEEN_TOKENS;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = scanString(text, i, marks);
    } else if (
      c === 0x7b ||
      c === 0x7d ||
      c === 0x5b ||
      c === 0x5d ||
      c === 0x3a ||
      c === 0x2c ||
      c === 0x20 ||
      c === 0x0a ||
      c === 0x0d ||
      c === 0x09
    ) {
      i += 1;
    } else {
      // A number or a literal: one token up to the next structural character.
      while (i < text.length && !isDelimiter(text.charCodeAt(i))) i += 1;
    }
    if (i < text.length) marks[i] = BETWEEN_TOKENS;
  }
  return marks;
}

function isDelimiter(c: number): boolean {
  return (
    c === 0x7b ||
    c === 0x7d ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x3a ||
    c === 0x2c ||
    c === 0x22 ||
    c === 0x20 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x09
  );
}

/** From the opening quote at `start`, marks the string's inner cuts; returns the index after its closing quote. */
function scanString(text: string, start: number, marks: Uint8Array): number {
  let i = start + 1;
  while (i < text.length) {
    marks[i] = IN_STRING;
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c === 0x5c) i += text.charCodeAt(i + 1) === 0x75 ? 6 : 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      i += next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    } else i += 1;
  }
  return i;
}
