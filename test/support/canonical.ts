// What the tests of the canonical walks share (compiler/validators/canonical.ts emits one, runtime/canonical/interpret.ts
// interprets the same plan): the 9-property
// schema, a value of it, and a schema's walk compiled as the runtime compiles a validator.
import { expect } from "vitest";
import { canonicalSerializerSource, SERIALIZER_FACTORY } from "../../compiler/validators/canonical.js";
import { interpretedSerializer } from "../../runtime/canonical/interpret.js";
import { canonicalPlan } from "../../runtime/canonical/plan.js";
import { planFromText, planText } from "../../runtime/canonical/plan-text.js";
import { compileValidatorBody } from "../../runtime/loading/validator-module.js";
import type { CanonicalSerializer } from "../../runtime/pipeline/json-data.js";

export const NINE = {
  type: "object",
  additionalProperties: false,
  required: ["name", "code", "quantity", "price", "urgent", "priority", "address", "items"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: 64 },
    code: { type: "string", maxLength: 32, pattern: "^[A-Z]{3}-[0-9]{4}$" },
    quantity: { type: "integer", minimum: 1, maximum: 1000 },
    price: { type: "number" },
    urgent: { type: "boolean" },
    note: { type: "string", maxLength: 500 },
    priority: {
      anyOf: [
        { const: "low", type: "string" },
        { const: "normal", type: "string" },
        { const: "high", type: "string" },
      ],
    },
    address: {
      type: "object",
      additionalProperties: false,
      properties: { street: { type: "string" }, city: { type: "string" } },
      required: ["street", "city"],
    },
    items: {
      type: "array",
      maxItems: 50,
      items: {
        type: "object",
        additionalProperties: false,
        properties: { id: { type: "string" }, weight: { type: "number" } },
        required: ["id", "weight"],
      },
    },
  },
};

/** The serializer a schema's validator would return, compiled as the runtime compiles a validator (a function body). */
export async function serializerOf(schema: unknown): Promise<CanonicalSerializer> {
  const source = canonicalSerializerSource(schema);
  expect(source, "the schema has a fixed shape").toBeDefined();
  const body = `${source!}\nreturn { canonical: ${SERIALIZER_FACTORY}() };\n`;
  return compileValidatorBody(body, "serializer.js")!.canonical as CanonicalSerializer;
}

/**
 * The same walk interpreted from the schema's plan, as the runtime walks a tool's first calls (runtime/canonical/interpret.ts):
 * the plan as the build writes it into the validator file and the runtime parses it back (plan-text.ts).
 */
export async function interpretedSerializerOf(schema: unknown): Promise<CanonicalSerializer> {
  const plan = canonicalPlan(schema);
  expect(plan, "the schema has a fixed shape").toBeDefined();
  return interpretedSerializer(planFromText(planText(plan!)));
}

/** Both walks, for tests that hold each to the general walk and to Ajv. */
export const WALKS = [
  { walk: "emitted", serializerOf },
  { walk: "interpreted", serializerOf: interpretedSerializerOf },
] as const;

export const nineValue = () => ({
  priority: "normal",
  name: "Ada",
  code: "ABC-1234",
  quantity: 12,
  price: 9.5,
  urgent: false,
  address: { street: "1 Row", city: "London" },
  items: [
    { weight: 1.5, id: "a" },
    { id: "b", weight: -0 },
  ],
});
