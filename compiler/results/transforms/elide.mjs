// elide@1, staged verbatim into the build folder. Lossy: long strings keep their head and tail, long arrays their
// first and last items, and a marker in place of the rest says how much was elided. The planner only picks it where
// the exact original is stored first.
// Type-checked as JavaScript by tsconfig.transforms.json. The staged module is this file without these leading comment
// lines (compiler/results/registry.ts), byte for byte, so its locked sha256 is the same wherever cave runs from.
export const id = "elide";
export const version = 1;
export const lossless = false;

const MAX_CHARS = 2000;
const HEAD_CHARS = 1200;
const TAIL_CHARS = 400;
const MAX_ITEMS = 30;
const HEAD_ITEMS = 20;
const TAIL_ITEMS = 5;

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Cut points that never separate the two halves of a surrogate pair. */
function headEnd(text, at) {
  return isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}
function tailStart(text, at) {
  return isHighSurrogate(text.charCodeAt(at - 1)) ? at + 1 : at;
}

function elide(value) {
  if (typeof value === "string") {
    if (value.length <= MAX_CHARS) return value;
    const head = headEnd(value, HEAD_CHARS);
    const tail = tailStart(value, value.length - TAIL_CHARS);
    const gone = tail - head;
    return value.slice(0, head) + " …[elided " + gone + " of " + value.length + " characters]… " + value.slice(tail);
  }
  if (Array.isArray(value)) {
    if (value.length <= MAX_ITEMS) return value.map(elide);
    const gone = value.length - HEAD_ITEMS - TAIL_ITEMS;
    const marker = "…[elided " + gone + " of " + value.length + " items: " + HEAD_ITEMS + " to " + (value.length - TAIL_ITEMS - 1) + "]…";
    return value.slice(0, HEAD_ITEMS).map(elide).concat([marker], value.slice(value.length - TAIL_ITEMS).map(elide));
  }
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(out, key, { value: elide(value[key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** Compact JSON of the value with long strings and arrays elided; markers say what is missing. */
export function encode(value) {
  const text = JSON.stringify(elide(value));
  if (typeof text !== "string") throw new TypeError("elide@1 encodes JSON data; got " + typeof value);
  return text;
}
