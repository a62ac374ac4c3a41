// The host's snapshot (runtime/pipeline/json-data.ts) and the sandbox child's serialiser (runtime/sandbox/child/plain-data.mjs)
// walk values apart but share their rules and words (child/data-rules.mjs): over one table of values, both must
// accept the same values with the same JSON and refuse the rest with the same problem.
import { describe, expect, it } from "vitest";
import { nativeSnapshot, snapshotJson } from "../../runtime/pipeline/json-data.js";
import { MAX_DEPTH } from "../../runtime/sandbox/child/data-rules.mjs";
import { serialise, serialiseNative } from "../../runtime/sandbox/child/plain-data.mjs";
import { MAX_JSON_DEPTH } from "../../src/contract/hash.js";

class Point {
  constructor(readonly x: number) {}
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

const VALUES: ReadonlyArray<readonly [string, unknown]> = [
  ["plain data", { b: [1, "two", true, null], a: { "x/y~z": -0.5 } }],
  ["a null-prototype object", Object.assign(Object.create(null), { fine: "yes" })],
  ["a function", { f: () => 1 }],
  ["a Symbol", { s: Symbol("x") }],
  ["an undefined field", { u: undefined }],
  ["a BigInt", { n: 10n }],
  ["a cycle", cyclic],
  ["a class instance", { p: new Point(1) }],
  ["an anonymous class instance", { p: new (class {})() }],
  ["a Date", { d: new Date(0) }],
  ["NaN", { n: Number.NaN }],
  ["Infinity", [Number.POSITIVE_INFINITY]],
  [
    "a throwing getter",
    {
      get g(): number {
        throw new Error("getter exploded");
      },
    },
  ],
  ["toJSON", { toJSON: () => "replaced" }],
  [
    "a throwing toJSON",
    {
      t: {
        toJSON: () => {
          throw new Error("toJSON exploded");
        },
      },
    },
  ],
  ["a __proto__ key", JSON.parse('{"ok":{"__proto__":{"polluted":1}}}')],
  ["a constructor.prototype key", { constructor: { prototype: {} } }],
  ["Symbol keys (metadata, left out)", { kept: 1, [Symbol("k")]: 1, nested: { [Symbol("brand")]: () => 1 } }],
  ["an Array subclass", { list: new (class List extends Array {})() }],
  ["a key with / and ~ on the path", { "a/b": { "c~d": () => 1 } }],
  ["too deep", nested(MAX_JSON_DEPTH + 1)],
  ["as deep as allowed", nested(MAX_JSON_DEPTH - 1)],
  ["too large", { text: "x".repeat(2_000) }],
];
const MAX_BYTES = 1_000;

describe("host and sandbox child agree on what plain JSON data is", () => {
  it("refuse deeper values at the same depth", () => {
    expect(MAX_DEPTH).toBe(MAX_JSON_DEPTH);
  });

  it.each(VALUES)("%s, as plain data (with an output schema)", (_, value) => {
    const host = snapshotJson(value, MAX_BYTES);
    const child = serialise(value, MAX_BYTES);
    if (host.ok && child.ok) expect([child.bytes, JSON.parse(child.text)]).toEqual([host.bytes, host.value]);
    else expect(child.ok ? child : child.problem).toEqual(host.ok ? host : host.problem);
  });

  it.each(VALUES)("%s, as JSON.stringify writes it (without an output schema)", (_, value) => {
    const host = nativeSnapshot(value, MAX_BYTES);
    const child = serialiseNative(value, MAX_BYTES);
    // The child sends its text; the host checks it with its own rules on receipt (depth, __proto__ keys).
    if (child.ok) {
      const received = snapshotJson(JSON.parse(child.text), MAX_BYTES);
      expect(received).toEqual(host);
    } else expect(child.problem).toEqual(host.ok ? host : host.problem);
  });
});
