import { describe, expect, test } from "vitest";
import { z } from "zod";
import * as v from "valibot";
import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { schema, tool } from "../../src/index.js";
import { expectRule, validToolOptions } from "./helpers.js";

const withField = (overrides: Record<string, unknown>) => () => tool(validToolOptions(overrides) as never);
const subject = 'tool "lookup_order"';
const HASH = "3f0a6b1c2d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5061728394a5b6c7d8e";

/** A validation-only validator: Standard Schema v1 without Standard JSON Schema, written by hand. */
function validationOnly(check: (value: unknown) => boolean): StandardSchemaV1<{ orderId: string }> {
  return {
    "~standard": {
      version: 1,
      vendor: "acme-validators",
      validate: (value) =>
        check(value)
          ? { value: value as { orderId: string } }
          : { issues: [{ message: "expected { orderId: string }" }] },
    },
  };
}
const ORDER_JSON_SCHEMA = {
  type: "object",
  properties: { orderId: { type: "string" } },
  required: ["orderId"],
  additionalProperties: false,
};

describe("tool(): input and output schemas", () => {
  test("a schema-less tool is allowed and keeps no schema", () => {
    const definition = tool(validToolOptions() as never);
    expect(definition.input).toBeUndefined();
    expect(definition.output).toBeUndefined();
  });

  test("schema.* values are accepted on both sides and kept as given", () => {
    const input = schema.object({ orderId: schema.string() });
    const output = schema.object({ status: schema.string() });
    const definition = tool(validToolOptions({ input, output }) as never);
    expect(definition.input).toBe(input);
    expect(definition.output).toBe(output);
  });

  test("zod 4 (Standard Schema with ~standard.jsonSchema) is accepted, with or without schemaSemanticsSHA256", () => {
    const input = z.object({ orderId: z.string().regex(/^ORD-\d+$/) });
    const output = z.object({ status: z.enum(["open", "shipped"]) });
    expect(typeof input["~standard"].jsonSchema.input).toBe("function");
    expect(tool(validToolOptions({ input, output }) as never).input).toBe(input);
    expect(tool(validToolOptions({ input, output, schemaSemanticsSHA256: HASH }) as never).schemaSemanticsSHA256).toBe(
      HASH,
    );
  });

  test("arktype (Standard JSON Schema) is accepted", () => {
    const input = type({ orderId: "string", "limit?": "number.integer" });
    expect(tool(validToolOptions({ input, output: input }) as never).input).toBe(input);
  });

  test("valibot with @valibot/to-json-schema's toStandardJsonSchema is accepted", () => {
    const input = toStandardJsonSchema(v.object({ email: v.pipe(v.string(), v.email()) }));
    expect(tool(validToolOptions({ input }) as never).input).toBe(input);
  });

  test("plain valibot has no JSON Schema of its own: it is validation-only and needs inputJSONSchema (CAVE1012)", () => {
    const input = v.object({ orderId: v.string() });
    expectRule(withField({ input }), {
      code: "CAVE1012",
      subject,
      field: "inputJSONSchema",
      mentions: /input is a validation-only Standard Schema \(valibot\) with no JSON Schema/,
      hint: /^valibot schemas describe their shape through the package @valibot\/to-json-schema: install it and write `input: toStandardJsonSchema\(schema\)`.*or pass `inputJSONSchema: toJsonSchema\(schema\)`\.$/,
    });
    const definition = tool(validToolOptions({ input, inputJSONSchema: toJsonSchema(input) }) as never);
    expect(definition.inputJSONSchema).toMatchObject({ type: "object", required: ["orderId"] });
  });

  test("a hand-written validation-only validator without inputJSONSchema is CAVE1012", () => {
    expectRule(withField({ input: validationOnly(() => true) }), {
      code: "CAVE1012",
      subject,
      field: "inputJSONSchema",
      hint: /Pass inputJSONSchema/,
    });
  });

  test("a hand-written validation-only validator without outputJSONSchema is CAVE1012", () => {
    expectRule(withField({ output: validationOnly(() => true) }), {
      code: "CAVE1012",
      subject,
      field: "outputJSONSchema",
      mentions: /output is a validation-only Standard Schema/,
      hint: /Pass outputJSONSchema/,
    });
  });

  test("a validation-only validator with inputJSONSchema / outputJSONSchema is accepted and keeps them", () => {
    const definition = tool(
      validToolOptions({
        input: validationOnly(() => true),
        inputJSONSchema: ORDER_JSON_SCHEMA,
        output: validationOnly(() => true),
        outputJSONSchema: ORDER_JSON_SCHEMA,
        schemaSemanticsSHA256: HASH,
      }) as never,
    );
    expect(definition.inputJSONSchema).toBe(ORDER_JSON_SCHEMA);
    expect(definition.outputJSONSchema).toBe(ORDER_JSON_SCHEMA);
    expect(definition.schemaSemanticsSHA256).toBe(HASH);
  });

  test.each([
    ["a plain JSON Schema object", { type: "object", properties: { orderId: { type: "string" } } }],
    ["an empty object", {}],
    ["a string", "object"],
    ["a function", (value: unknown) => typeof value === "object"],
    ["Standard Schema version 2", { "~standard": { version: 2, vendor: "x", validate: () => ({ value: 1 }) } }],
    ["~standard without validate", { "~standard": { version: 1, vendor: "x" } }],
    ["null", null],
  ])("input that is %s is refused with CAVE1012", (_label, input) => {
    expectRule(withField({ input }), {
      code: "CAVE1012",
      subject,
      field: "input",
      mentions: /input is .*, not a schema/,
      hint: /schema\.\*.*Standard Schema v1 validator.*inputJSONSchema/,
    });
  });

  test("a plain object as output is refused with CAVE1012", () => {
    expectRule(withField({ output: { type: "string" } }), {
      code: "CAVE1012",
      subject,
      field: "output",
      mentions: /output is .*, not a schema/,
      hint: /outputJSONSchema/,
    });
  });

  test("inputJSONSchema alongside a schema.* input is refused (CAVE1012): it is JSON Schema already", () => {
    expectRule(withField({ input: schema.string(), inputJSONSchema: { type: "string" } }), {
      code: "CAVE1012",
      subject,
      field: "inputJSONSchema",
      mentions: /schema\.\* input, which is JSON Schema already/,
      hint: "Drop inputJSONSchema.",
    });
  });

  test("outputJSONSchema without an output is refused (CAVE1012)", () => {
    expectRule(withField({ outputJSONSchema: { type: "string" } }), {
      code: "CAVE1012",
      subject,
      field: "outputJSONSchema",
      mentions: /outputJSONSchema is given without output/,
      hint: /Pass the validator as output, or drop outputJSONSchema/,
    });
  });

  test.each([
    ["a string", '{"type":"object"}'],
    ["an array", [{ type: "object" }]],
    ["null", null],
  ])("inputJSONSchema that is %s is refused (CAVE1012)", (_label, inputJSONSchema) => {
    expectRule(withField({ input: validationOnly(() => true), inputJSONSchema }), {
      code: "CAVE1012",
      subject,
      field: "inputJSONSchema",
      mentions: /not a JSON Schema object/,
      hint: /plain object/,
    });
  });
});

describe("tool(): schemaSemanticsSHA256", () => {
  const zodInput = z.object({ orderId: z.string() });

  test.each([
    ["uppercase hex", HASH.toUpperCase()],
    ["63 characters", HASH.slice(1)],
    ["65 characters", `${HASH}0`],
    ["the sha256- prefix", `sha256-${HASH}`],
    ["a non-hex character", `g${HASH.slice(1)}`],
    ["an empty string", ""],
  ])("%s is refused with CAVE1013", (_label, schemaSemanticsSHA256) => {
    expectRule(withField({ input: zodInput, schemaSemanticsSHA256 }), {
      code: "CAVE1013",
      subject,
      field: "schemaSemanticsSHA256",
      mentions: /is not 64 lowercase hex characters/,
      hint: /lowercase hex SHA-256 of the validator code, dependencies and captured state/,
    });
  });

  test.each([[123], [null], [["abc"]], [{ sha256: HASH }]])(
    "the non-string %j is refused with CAVE1013",
    (schemaSemanticsSHA256) => {
      expectRule(withField({ input: zodInput, schemaSemanticsSHA256 }), {
        code: "CAVE1013",
        subject,
        field: "schemaSemanticsSHA256",
        mentions: /is not 64 lowercase hex characters/,
      });
    },
  );

  test("on a tool with only schema.* values it identifies nothing and is refused (CAVE1013)", () => {
    expectRule(withField({ input: schema.string(), schemaSemanticsSHA256: HASH }), {
      code: "CAVE1013",
      subject,
      field: "schemaSemanticsSHA256",
      mentions: /neither input nor output is a Standard Schema/,
      hint: /opaque validators only; drop it/,
    });
  });

  test("on a schema-less tool it is refused (CAVE1013)", () => {
    expectRule(withField({ schemaSemanticsSHA256: HASH }), {
      code: "CAVE1013",
      subject,
      field: "schemaSemanticsSHA256",
    });
  });

  test("an opaque output alone is enough to carry it", () => {
    expect(
      tool(validToolOptions({ input: schema.string(), output: zodInput, schemaSemanticsSHA256: HASH }) as never)
        .schemaSemanticsSHA256,
    ).toBe(HASH);
  });
});

describe("tool(): one source per schema shape", () => {
  test("a Standard Schema that emits its own JSON Schema also takes inputJSONSchema / outputJSONSchema: a transform cannot describe itself, and the build decides (it refuses two descriptions of one side)", () => {
    const output = z.object({ total: z.string() }).transform((o) => ({ total: Number(o.total) }));
    const outputJSONSchema = { type: "object", properties: { total: { type: "number" } }, required: ["total"] };
    const definition = tool(
      validToolOptions({
        input: z.object({ id: z.string() }),
        output,
        outputJSONSchema,
        schemaSemanticsSHA256: HASH,
      }) as never,
    );
    expect(definition.outputJSONSchema).toEqual(outputJSONSchema);
    expect(definition.output).toBe(output);
  });
});
