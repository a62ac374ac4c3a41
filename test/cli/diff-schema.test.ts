import { describe, expect, it } from "vitest";
import { compareSchemas, type Direction } from "../../compiler/diff/schema.js";

const obj = (properties: Record<string, unknown>, required: string[], extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
  ...extra,
});
const str = (extra: Record<string, unknown> = {}) => ({ type: "string", ...extra });

/** [name, before, after, expected findings as "path direction"] */
const CASES: Array<[string, unknown, unknown, string[]]> = [
  ["identical schemas", obj({ a: str() }, ["a"]), obj({ a: str() }, ["a"]), []],
  [
    "key order does not matter",
    { type: "string", maxLength: 3, minLength: 1 },
    { minLength: 1, maxLength: 3, type: "string" },
    [],
  ],
  [
    "lower maxLength is narrower",
    obj({ id: str({ maxLength: 20 }) }, ["id"]),
    obj({ id: str({ maxLength: 10 }) }, ["id"]),
    ["id narrower"],
  ],
  [
    "higher maxLength is wider",
    obj({ id: str({ maxLength: 20 }) }, ["id"]),
    obj({ id: str({ maxLength: 40 }) }, ["id"]),
    ["id wider"],
  ],
  ["higher minimum is narrower", { type: "number", minimum: 0 }, { type: "number", minimum: 1 }, [" narrower"]],
  ["removed maximum is wider", { type: "number", maximum: 9 }, { type: "number" }, [" wider"]],
  ["new pattern is narrower", str(), str({ pattern: "^a" }), [" narrower"]],
  ["changed pattern cannot be classified", str({ pattern: "^a" }), str({ pattern: "^b" }), [" unclassified"]],
  ["new required field is narrower", obj({ a: str() }, ["a"]), obj({ a: str(), b: str() }, ["a", "b"]), ["b narrower"]],
  ["new optional field", obj({ a: str() }, ["a"]), obj({ a: str(), b: str() }, ["a"]), ["b optional-field-added"]],
  ["removed field", obj({ a: str(), b: str() }, ["a", "b"]), obj({ a: str() }, ["a"]), ["b field-removed"]],
  ["optional to required is narrower", obj({ a: str() }, []), obj({ a: str() }, ["a"]), ["a narrower"]],
  ["required to optional is wider", obj({ a: str() }, ["a"]), obj({ a: str() }, []), ["a wider"]],
  [
    "closing an object is narrower",
    { type: "object", properties: {} },
    { type: "object", properties: {}, additionalProperties: false },
    [" narrower"],
  ],
  ["opening an object is wider", obj({}, []), obj({}, [], { additionalProperties: true }), [" wider"]],
  ["string to number is incompatible", str(), { type: "number" }, [" incompatible"]],
  ["integer to number is wider", { type: "integer" }, { type: "number" }, [" wider"]],
  ["number to integer is narrower", { type: "number" }, { type: "integer" }, [" narrower"]],
  ["removed enum value is narrower", { enum: ["a", "b"] }, { enum: ["a"] }, [" narrower"]],
  ["added enum value is wider", { enum: ["a"] }, { enum: ["a", "b"] }, [" wider"]],
  ["replaced enum value is incompatible", { enum: ["a"] }, { enum: ["b"] }, [" incompatible"]],
  [
    "dropped anyOf option is narrower",
    { anyOf: [{ const: "a" }, { const: "b" }] },
    { anyOf: [{ const: "a" }] },
    [" narrower"],
  ],
  ["oneOf change is unclassified", { oneOf: [{ const: "a" }] }, { oneOf: [{ const: "b" }] }, [" unclassified"]],
  ["$ref change is unclassified", { $ref: "#/definitions/a" }, { $ref: "#/definitions/b" }, [" unclassified"]],
  ["description is an annotation", str({ description: "x" }), str({ description: "y" }), [" annotation"]],
  [
    "array items are compared",
    { type: "array", items: obj({ sku: str({ maxLength: 9 }) }, ["sku"]) },
    { type: "array", items: obj({ sku: str({ maxLength: 5 }) }, ["sku"]) },
    ["[].sku narrower"],
  ],
  ["lower maxItems is narrower", { type: "array", maxItems: 9 }, { type: "array", maxItems: 3 }, [" narrower"]],
  [
    "multipleOf 2 to 4 is narrower",
    { type: "number", multipleOf: 2 },
    { type: "number", multipleOf: 4 },
    [" narrower"],
  ],
  [
    "multipleOf 2 to 3 is incompatible",
    { type: "number", multipleOf: 2 },
    { type: "number", multipleOf: 3 },
    [" incompatible"],
  ],
  ["unique items is narrower", { type: "array" }, { type: "array", uniqueItems: true }, [" narrower"]],
  [
    "unknown keyword change is unclassified",
    { type: "string", "x-vendor": 1 },
    { type: "string", "x-vendor": 2 },
    [" unclassified"],
  ],
];

describe("compareSchemas", () => {
  it.each(CASES)("%s", (_name, before, after, expected) => {
    const findings = compareSchemas(before, after);
    expect(findings.map((f) => `${f.path} ${f.direction}`)).toEqual(expected);
    for (const f of findings) expect(f.what.length).toBeGreaterThan(3);
  });

  it("says what changed in plain words, with both values", () => {
    const [finding] = compareSchemas(
      obj({ id: str({ maxLength: 20 }) }, ["id"]),
      obj({ id: str({ maxLength: 10 }) }, ["id"]),
    );
    expect(finding).toMatchObject({ path: "id", what: "maxLength 20 → 10 (tighter)", before: 20, after: 10 });
  });

  it("records whether a removed field was required and whether the object stays closed", () => {
    const [finding] = compareSchemas(obj({ a: str(), b: str() }, ["a"]), obj({ a: str() }, ["a"]));
    expect(finding).toMatchObject({
      path: "b",
      direction: "field-removed" satisfies Direction,
      wasRequired: false,
      closedAfter: true,
    });
  });

  it("reports an incompatible type once, without noise from the keywords under it", () => {
    expect(compareSchemas(str({ maxLength: 3 }), { type: "array", maxItems: 3 })).toHaveLength(1);
  });
});
