// The canonical walk interpreted from a schema's plan (runtime/canonical/interpret.ts) against the walk the build
// emits from the same plan (compiler/validators/canonical.ts): on generated schemas and on values generated near
// them, the very same answer: given up or not, the copy with its key order, the sorted twin, the counted bytes and
// the verdict. (Each is also held to the general walk and to Ajv: canonical-differential.test.ts,
// canonical-validates.test.ts.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalPlan } from "../../runtime/canonical/plan.js";
import { planFromText, planText } from "../../runtime/canonical/plan-text.js";
import { interpretedSerializer } from "../../runtime/canonical/interpret.js";
import type { CanonicalSerializer } from "../../runtime/pipeline/json-data.js";
import { rng } from "../results/generate.js";
import { NINE, nineValue, serializerOf } from "../support/canonical.js";

/** The answer with every object's key order made visible (toEqual ignores key order). */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value === "object" && value !== null) return Object.entries(value).map(([k, v]) => [k, ordered(v)]);
  return value;
}

function answer(serializer: CanonicalSerializer, value: unknown, maxBytes: number): unknown {
  return ordered(serializer(value, maxBytes));
}

const PATTERNS = ["^[A-Z]{3}-[0-9]{4}$", "^\\p{L}{1,3}$", "^.$", "a|b", "^$"];
const STRINGS = ["", "a", "ab", "abc", "ABC-1234", "é", "\u{1F600}", "\u{1F600}\u{1F600}", "xyz", "b", "\ud800"];
const NUMBERS = [0, -0, 1, -1, 2, 2.5, 3, 10, 0.1, -7.25, 1e21, 1000];

const STRING_KEYWORDS = {
  minLength: fc.integer({ min: 0, max: 3 }),
  maxLength: fc.integer({ min: 0, max: 3 }),
  pattern: fc.constantFrom(...PATTERNS),
  format: fc.constant("email"),
};
const NUMBER_KEYWORDS = {
  minimum: fc.constantFrom(...NUMBERS),
  maximum: fc.constantFrom(...NUMBERS),
  exclusiveMinimum: fc.constantFrom(...NUMBERS),
  exclusiveMaximum: fc.constantFrom(...NUMBERS),
  multipleOf: fc.constantFrom(1, 2, 3, 0.5),
};
const TYPES = [
  "string",
  "number",
  "integer",
  "boolean",
  "null",
  ["string", "null"],
  ["integer", "string"],
  ["number", "boolean"],
];

/** A leaf with a type and one or two keywords (more and nearly every value fails one of them, so the others go untested). */
const leafKeywords: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(...TYPES).chain((type) => {
  const names = Array.isArray(type) ? type : [type];
  const keywords = {
    ...(names.includes("string") ? STRING_KEYWORDS : {}),
    ...(names.includes("number") || names.includes("integer") ? NUMBER_KEYWORDS : {}),
    description: fc.constant("annotated"),
  };
  return fc
    .record(keywords)
    .chain((all) =>
      fc.shuffledSubarray(Object.entries(all), { minLength: 0, maxLength: Math.min(2, Object.keys(all).length) }),
    )
    .map((entries) => ({ type, ...Object.fromEntries(entries) }));
});
const primitive = fc.oneof(fc.constantFrom(...STRINGS), fc.constantFrom(...NUMBERS), fc.boolean(), fc.constant(null));
const leafSchema: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 4, arbitrary: leafKeywords },
  { weight: 1, arbitrary: primitive.map((value) => ({ const: value })) },
  { weight: 1, arbitrary: fc.array(primitive, { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.boolean(), fc.array(leafKeywords, { minLength: 1, maxLength: 3 }))
      .map(([anyOf, members]) => ({ [anyOf ? "anyOf" : "oneOf"]: members })),
  },
);
const { schema: schemaArb } = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafSchema,
    fc
      .record(
        {
          properties: fc.dictionary(fc.constantFrom("a", "b", "c", "é", "B", "constructor"), tie("schema"), {
            maxKeys: 4,
          }),
          required: fc.uniqueArray(fc.constantFrom("a", "b", "c", "z")),
          minProperties: fc.integer({ min: 0, max: 3 }),
          maxProperties: fc.integer({ min: 0, max: 4 }),
        },
        { requiredKeys: ["properties"] },
      )
      .map((o) => ({ type: "object", additionalProperties: false, ...o })),
    fc
      .record(
        {
          items: tie("schema"),
          minItems: fc.integer({ min: 0, max: 2 }),
          maxItems: fc.integer({ min: 0, max: 3 }),
          uniqueItems: fc.boolean(),
        },
        { requiredKeys: ["items"] },
      )
      .map((a) => ({ type: "array", ...a })),
  ),
}));

/** A value near `schema`: its shape mostly, with leaves drawn from around every bound, keys dropped and added. */
function nearValue(schema: Record<string, unknown>, pick: () => number): unknown {
  const r = pick();
  if (r < 0.05) return STRINGS[Math.floor(pick() * STRINGS.length)];
  if (schema.type === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(schema.properties as Record<string, Record<string, unknown>>))
      if (pick() < 0.75) out[key] = nearValue(child, pick);
    if (pick() < 0.05) out.extra = 1;
    return out;
  }
  if (schema.type === "array") {
    const length = Math.floor(pick() * 4);
    return Array.from({ length }, () => nearValue(schema.items as Record<string, unknown>, pick));
  }
  // Mostly of the leaf's own type, from the bounds the schemas use, so each bound is met on both sides.
  const types = [schema.type].flat();
  if (r < 0.6 && types.includes("string")) return STRINGS[Math.floor(pick() * STRINGS.length)];
  if (r < 0.6 && (types.includes("number") || types.includes("integer")))
    return NUMBERS[Math.floor(pick() * NUMBERS.length)];
  if (r < 0.45) return NUMBERS[Math.floor(pick() * NUMBERS.length)];
  if (r < 0.85) return STRINGS[Math.floor(pick() * STRINGS.length)];
  const rest = [true, false, null, Number.NaN, 1.5e300, 4, 6, 999];
  return rest[Math.floor(pick() * rest.length)];
}

describe("the interpreted walk answers exactly as the emitted one", () => {
  it("on generated schemas and values near them, under large and small byte caps (property-based)", async () => {
    let planned = 0;
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(schemaArb, fc.integer({ min: 0, max: 0x7fffffff }), async (schema, seed) => {
        const plan = canonicalPlan(schema);
        if (plan === undefined) return;
        planned++;
        const emitted = await serializerOf(schema);
        // The plan as the runtime reads it from a validator file (plan-text.ts), walked the same. Its text is stable; a
        // -0 in a bound comes back as 0 (the build then leaves the line out, assemble.ts), which decides the same.
        const written = planFromText(planText(plan));
        expect(planText(written)).toBe(planText(plan));
        const interpreted = interpretedSerializer(written);
        // Uniform draws from the seed: fast-check's own doubles lean to their edge values.
        const pick = rng(seed);
        for (let i = 0; i < 8; i++) {
          const value = nearValue(schema, pick);
          for (const cap of [1_000_000, 12]) {
            const expected = answer(emitted, value, cap);
            expect(answer(interpreted, value, cap), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).toEqual(
              expected,
            );
            if (expected !== undefined) taken++;
          }
        }
      }),
      { numRuns: 1_000 },
    );
    // The property reached planned schemas and values they take, not only refusals.
    expect(planned).toBeGreaterThan(250);
    expect(taken).toBeGreaterThan(500);
  });

  it("on the benchmark's schema, on arbitrary values too", async () => {
    const emitted = await serializerOf(NINE);
    const interpreted = interpretedSerializer(canonicalPlan(NINE)!);
    expect(answer(interpreted, nineValue(), 1_000_000)).toEqual(answer(emitted, nineValue(), 1_000_000));
    expect(interpreted(nineValue(), 1_000_000)?.valid).toBe(true);
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything()), (value) => {
        expect(answer(interpreted, value, 1_000_000)).toEqual(answer(emitted, value, 1_000_000));
      }),
      { numRuns: 2_000 },
    );
  });

  it("cannot be made from a plan whose pattern does not compile with the u flag (a SyntaxError, as the emitted module's)", () => {
    const plan = canonicalPlan({ type: "string", pattern: "(" });
    expect(plan).toBeDefined();
    expect(() => interpretedSerializer(plan!)).toThrow(SyntaxError);
  });
});
