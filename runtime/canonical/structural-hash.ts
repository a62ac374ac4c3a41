/**
 * A 32-bit hash of a sorted twin (plain JSON data whose objects hold their keys in code-unit order, as a snapshot
 * keeps it): values with the same canonical JSON text have the same hash, whatever key order or number spelling they
 * came with. It buckets the repeat guard's calls without writing their text or hashing it with SHA-256 (docs/decisions.md,
 * "The repeat guard buckets calls by a structural hash"); calls in one bucket are told apart by their canonical text,
 * so a collision costs time, never a wrong answer.
 *
 * Why it matches canonical equality: strings are mixed code unit by code unit with their length; a number by its
 * IEEE-754 bits, -0 as 0 (RFC 8785 writes one text for each double, "0" for both zeros); objects by their keys in
 * the twin's order, which is the same for equal values (the same keys, inserted in code-unit order; integer-like keys
 * come first in any object, in ascending order, either way); arrays by length and elements in order. Each kind is
 * tagged, so `"1"` and `1`, `[]` and `{}`, `[[1]]` and `[1]` differ.
 */
export function structuralHash(sorted: unknown): number {
  return mixValue(sorted, SEED) >>> 0;
}

const SEED = 0x2f6b_7a41;
const STRING = 0x51;
const NUMBER = 0x52;
const TRUE = 0x53;
const FALSE = 0x54;
const NULL = 0x55;
const ARRAY = 0x56;
const OBJECT = 0x57;
const END = 0x58;

const number = new Float64Array(1);
const numberWords = new Uint32Array(number.buffer);

/** One round of a multiply-rotate mix (the shape of MurmurHash3's), enough to spread code units and lengths. */
function mix(hash: number, word: number): number {
  const mixed = Math.imul(hash ^ word, 0x9e37_79b1);
  return (mixed << 13) | (mixed >>> 19);
}

function mixString(text: string, hash: number): number {
  let h = mix(hash, STRING ^ (text.length << 8));
  for (let i = 0; i < text.length; i++) h = mix(h, text.charCodeAt(i));
  return h;
}

function mixValue(value: unknown, hash: number): number {
  switch (typeof value) {
    case "string":
      return mixString(value, hash);
    case "number":
      number[0] = value === 0 ? 0 : value;
      return mix(mix(mix(hash, NUMBER), numberWords[0]!), numberWords[1]!);
    case "boolean":
      return mix(hash, value ? TRUE : FALSE);
    default: {
      if (value === null) return mix(hash, NULL);
      if (Array.isArray(value)) {
        let h = mix(hash, ARRAY ^ (value.length << 8));
        for (let i = 0; i < value.length; i++) h = mixValue(value[i], h);
        return h;
      }
      let h = mix(hash, OBJECT);
      const record = value as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        h = mixValue(record[key], mixString(key, h));
      }
      return mix(h, END);
    }
  }
}
