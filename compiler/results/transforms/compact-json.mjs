// compact-json@1, staged verbatim into the build folder. Lossless: decode(encode(v)) equals v as JSON.
// Type-checked as JavaScript by tsconfig.transforms.json. The staged module is this file without these leading comment
// lines (compiler/results/registry.ts), byte for byte, so its locked sha256 is the same wherever cave runs from.
export const id = "compact-json";
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
