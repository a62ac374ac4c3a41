import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { canonicalJson, JsonTooDeepError, MAX_JSON_DEPTH } from "../../src/contract/hash.js";

/**
 * canonicalJson takes a native JSON.stringify path when that already yields RFC 8785 bytes (sorted keys,
 * plain data). These tests hold it to the canonicalize package, byte for byte, on both paths.
 */
function reference(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("no JSON representation");
  return text;
}

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const STRINGS = [
  "",
  "a",
  "B",
  "é",
  "\u0000",
  "\u001f",
  '"',
  "\\",
  "/",
  "\u2028",
  "😀",
  "\ud834\udd1e",
  "10",
  "9",
  "__proto__x",
  "z".repeat(40),
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  1.5,
  1e21,
  1e-7,
  123456789012345680000,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  0.1 + 0.2,
  -1e300,
];

function generate(next: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const r = next();
  if (depth > 3 || r < 0.35) return pick<unknown>([...STRINGS, ...NUMBERS, true, false, null]);
  if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => generate(next, depth + 1));
  const keys = Array.from({ length: Math.floor(next() * 5) }, () => pick(STRINGS));
  if (next() < 0.5) keys.sort();
  const object: Record<string, unknown> = {};
  for (const key of keys) object[key] = generate(next, depth + 1);
  return object;
}

describe("canonicalJson", () => {
  it("equals the canonicalize package on 5000 generated values, sorted and unsorted", () => {
    const next = random(42);
    for (let i = 0; i < 5000; i++) {
      const value = generate(next, 0);
      expect(canonicalJson(value)).toBe(reference(value));
    }
  });

  it("equals it on values the native path must leave to the general one", () => {
    const cases: unknown[] = [
      { b: 1, a: 2 },
      { "10": 1, "9": 2, a: 3 },
      { a: undefined, b: 1 },
      [undefined, 1],
      { d: new Date(0) },
      { t: { toJSON: () => ({ z: 1, y: 2 }) } },
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      JSON.parse('{"__proto__":{"x":1},"a":1}'),
    ];
    for (const value of cases) expect(canonicalJson(value)).toBe(reference(value));
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = { a: deep };
    expect(canonicalJson(deep)).toBe(reference(deep));
    // One level more has no canonical form here (issue 13: deep nesting overflowed the stack).
    expect(() => canonicalJson({ a: deep })).toThrow(JsonTooDeepError);
  });

  it("refuses what RFC 8785 cannot represent, like canonicalize", () => {
    for (const value of [{ s: "\ud800" }, { "\udc00": 1 }, { n: Number.NaN }, [Infinity]]) {
      expect(() => reference(value)).toThrow();
      expect(() => canonicalJson(value)).toThrow();
    }
  });
});
