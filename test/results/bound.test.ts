import { describe, expect, it } from "vitest";
import type { SizeBound } from "../../src/contract/lock.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { sizeBound } from "../../compiler/results/bound.js";

const str = (extra: Record<string, unknown> = {}) => ({ type: "string", ...extra });

/** Output schemas and the bound the planner derives (tokens <= UTF-8 bytes of the canonical JSON). */
const TABLE: Array<[string, Record<string, unknown> | null, SizeBound]> = [
  ["schema-less", null, { kind: "unbounded", path: "", why: "the tool has no output JSON Schema" }],
  ["boolean", { type: "boolean" }, { kind: "bounded", tokens: 5 }],
  ["null", { type: "null" }, { kind: "bounded", tokens: 4 }],
  ["any number", { type: "number" }, { kind: "bounded", tokens: 25 }],
  ["small integer", { type: "integer", minimum: -99, maximum: 1000 }, { kind: "bounded", tokens: 4 }],
  ["huge integer range", { type: "integer", minimum: 0, maximum: 1e22 }, { kind: "bounded", tokens: 25 }],
  ["string maxLength 10", str({ maxLength: 10 }), { kind: "bounded", tokens: 62 }],
  ["uuid", str({ format: "uuid" }), { kind: "bounded", tokens: 38 }],
  ["date-time", str({ format: "date-time" }), { kind: "bounded", tokens: 37 }],
  ["email", str({ format: "email" }), { kind: "bounded", tokens: 256 }],
  ["email with smaller maxLength", str({ format: "email", maxLength: 20 }), { kind: "bounded", tokens: 122 }],
  [
    "uri",
    str({ format: "uri" }),
    { kind: "unbounded", path: "", why: 'a string of format "uri" (no known length) without maxLength' },
  ],
  ["plain string", str(), { kind: "unbounded", path: "", why: "a string without maxLength" }],
  ["enum", { enum: ["open", "paid", "émis"] }, { kind: "bounded", tokens: 7 }],
  ["const", { const: { a: [1, 2] } }, { kind: "bounded", tokens: canonicalJson({ a: [1, 2] }).length }],
  [
    "array without maxItems",
    { type: "array", items: { type: "boolean" } },
    { kind: "unbounded", path: "", why: "an array without maxItems" },
  ],
  [
    "array of 3 booleans",
    { type: "array", items: { type: "boolean" }, maxItems: 3 },
    { kind: "bounded", tokens: 2 + 15 + 2 },
  ],
  [
    "tuple closed",
    { type: "array", items: [{ type: "null" }, { type: "boolean" }], additionalItems: false },
    { kind: "bounded", tokens: 2 + 4 + 5 + 1 },
  ],
  [
    "closed object",
    { type: "object", properties: { ok: { type: "boolean" }, n: { type: "null" } }, additionalProperties: false },
    { kind: "bounded", tokens: 2 + (4 + 1 + 5) + 1 + (3 + 1 + 4) },
  ],
  [
    "open object",
    { type: "object", properties: { ok: { type: "boolean" } } },
    {
      kind: "unbounded",
      path: "/additionalProperties",
      why: "an open object (additionalProperties is not false) without maxProperties",
    },
  ],
  [
    "open object with limits",
    { type: "object", maxProperties: 2, propertyNames: { maxLength: 3 }, additionalProperties: { type: "boolean" } },
    { kind: "bounded", tokens: 2 + 2 * (2 + 18 + 1 + 5) + 1 },
  ],
  [
    "nested unbounded",
    {
      type: "object",
      properties: { a: { type: "boolean" }, list: { type: "array", items: str({ maxLength: 5 }) } },
      additionalProperties: false,
    },
    { kind: "unbounded", path: "/properties/list", why: "an array without maxItems" },
  ],
  [
    "deep path",
    {
      type: "object",
      properties: {
        rows: {
          type: "array",
          maxItems: 2,
          items: { type: "object", properties: { text: str() }, additionalProperties: false },
        },
      },
      additionalProperties: false,
    },
    { kind: "unbounded", path: "/properties/rows/items/properties/text", why: "a string without maxLength" },
  ],
  ["anyOf all bounded", { anyOf: [{ type: "null" }, str({ maxLength: 1 })] }, { kind: "bounded", tokens: 8 }],
  [
    "anyOf one unbounded",
    { anyOf: [{ type: "null" }, str()] },
    { kind: "unbounded", path: "/anyOf/1", why: "a string without maxLength" },
  ],
  ["allOf takes the tightest", { allOf: [str(), str({ maxLength: 2 })] }, { kind: "bounded", tokens: 14 }],
  [
    "local $ref",
    { definitions: { flag: { type: "boolean" } }, type: "array", maxItems: 1, items: { $ref: "#/definitions/flag" } },
    { kind: "bounded", tokens: 7 },
  ],
  [
    "recursive $ref",
    {
      definitions: { node: { type: "array", maxItems: 2, items: { $ref: "#/definitions/node" } } },
      $ref: "#/definitions/node",
    },
    { kind: "unbounded", path: "/definitions/node/items", why: "nested deeper than 64 levels" },
  ],
  [
    "no type",
    { description: "anything" },
    { kind: "unbounded", path: "", why: "no type, const or enum: any value is allowed" },
  ],
  [
    "true schema",
    { type: "array", maxItems: 1, items: true },
    { kind: "unbounded", path: "/items", why: "any value is allowed (schema true)" },
  ],
  [
    "pattern properties",
    { type: "object", patternProperties: { "^x": { type: "null" } }, additionalProperties: false },
    { kind: "unbounded", path: "/patternProperties", why: "pattern properties allow any number of keys" },
  ],
];

describe("size bounds from output schemas", () => {
  it.each(TABLE)("%s", (_, schema, expected) => {
    expect(sizeBound(schema)).toEqual(expected);
  });

  it("is an upper bound of the canonical JSON bytes of extreme valid values", () => {
    const schema = {
      type: "object",
      properties: { s: str({ maxLength: 4 }), n: { type: "number" }, when: str({ format: "date-time" }) },
      additionalProperties: false,
    };
    const bound = sizeBound(schema);
    expect(bound.kind).toBe("bounded");
    const worst = {
      s: "\u0000\u0001😀\u001f",
      n: -1.2345678901234567e-300,
      when: "2026-12-31T23:59:60.123456789+14:00",
    };
    expect(Buffer.byteLength(canonicalJson(worst))).toBeLessThanOrEqual((bound as { tokens: number }).tokens);
  });
});
