/**
 * compact-json@1, staged verbatim into the build folder. Lossless: decode(encode(v)) equals v as JSON.
 * Written as plain ESM text (not compiled from TypeScript) so its bytes, and so its locked sha256,
 * are the same wherever cave runs from.
 */
export const COMPACT_JSON_SOURCE = `export const id = "compact-json";
export const version = 1;
export const lossless = true;

/** The value as JSON text without insignificant whitespace. */
export function encode(value) {
  const text = JSON.stringify(value);
  if (typeof text !== "string") throw new TypeError("compact-json@1 encodes JSON data; got " + typeof value);
  return text;
}

export function decode(text) {
  return JSON.parse(text);
}
`;
