import { describe, expect, test } from "vitest";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { SCHEMA_FORMATS, schema } from "../../src/index.js";
import { expectRule } from "./helpers.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** What providers and the compiled validators see: JSON, without TypeBox's symbol brands. */
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

describe("schema: the builders", () => {
  test("has exactly the 11 builders of the contract", () => {
    expect(Object.keys(schema).sort()).toEqual([
      "any",
      "array",
      "boolean",
      "integer",
      "literal",
      "null",
      "number",
      "object",
      "optional",
      "string",
      "union",
    ]);
    for (const builder of Object.values(schema)) expect(typeof builder).toBe("function");
  });

  test("each builder emits the JSON Schema it promises", () => {
    expect(json(schema.string())).toEqual({ type: "string" });
    expect(json(schema.number())).toEqual({ type: "number" });
    expect(json(schema.integer())).toEqual({ type: "integer" });
    expect(json(schema.boolean())).toEqual({ type: "boolean" });
    expect(json(schema.null())).toEqual({ type: "null" });
    expect(json(schema.any())).toEqual({});
    expect(json(schema.literal("refund"))).toEqual({ type: "string", const: "refund" });
    expect(json(schema.literal(3))).toEqual({ type: "number", const: 3 });
    expect(json(schema.literal(false))).toEqual({ type: "boolean", const: false });
    expect(json(schema.array(schema.string()))).toEqual({ type: "array", items: { type: "string" } });
    expect(json(schema.union([schema.string(), schema.null()]))).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }],
    });
    expect(json(schema.optional(schema.string()))).toEqual({ type: "string" });
    expect(json(schema.object({ orderId: schema.string(), note: schema.optional(schema.string()) }))).toEqual({
      type: "object",
      additionalProperties: false,
      properties: { orderId: { type: "string" }, note: { type: "string" } },
      required: ["orderId"],
    });
  });

  test("objects are closed by default, nested ones too", () => {
    const closed = schema.object({ address: schema.object({ city: schema.string() }) });
    expect(json(closed)).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["address"],
      properties: {
        address: {
          type: "object",
          additionalProperties: false,
          required: ["city"],
          properties: { city: { type: "string" } },
        },
      },
    });
    const validate = strictAjv().compile(json(closed) as object);
    expect(validate({ address: { city: "Lyon" } })).toBe(true);
    expect(validate({ address: { city: "Lyon" }, extra: 1 })).toBe(false);
    expect(validate({ address: { city: "Lyon", zip: "69001" } })).toBe(false);
  });

  test("an object can be opened with additionalProperties: true, or closed explicitly", () => {
    const open = schema.object({ id: schema.string() }, { additionalProperties: true });
    expect(json(open)).toMatchObject({ additionalProperties: true });
    expect(strictAjv().compile(json(open) as object)({ id: "a", extra: 1 })).toBe(true);
    expect(json(schema.object({}, { additionalProperties: false }))).toMatchObject({ additionalProperties: false });
  });

  test("an object with no required property emits no required list", () => {
    expect(json(schema.object({ note: schema.optional(schema.string()) }))).toEqual({
      type: "object",
      additionalProperties: false,
      properties: { note: { type: "string" } },
    });
  });
});

describe("schema: options pass through to the JSON Schema", () => {
  const cases: ReadonlyArray<readonly [string, unknown, Record<string, unknown>]> = [
    [
      "string",
      schema.string({
        minLength: 1,
        maxLength: 64,
        pattern: "^ORD-[0-9]+$",
        description: "Order id",
        examples: ["ORD-1"],
        title: "OrderId",
      }),
      {
        type: "string",
        minLength: 1,
        maxLength: 64,
        pattern: "^ORD-[0-9]+$",
        description: "Order id",
        examples: ["ORD-1"],
        title: "OrderId",
      },
    ],
    ["string format email", schema.string({ format: "email" }), { type: "string", format: "email" }],
    ["string format date-time", schema.string({ format: "date-time" }), { type: "string", format: "date-time" }],
    ["string format uri", schema.string({ format: "uri" }), { type: "string", format: "uri" }],
    [
      "string default",
      schema.string({ default: "EUR", deprecated: true, $comment: "ISO 4217" }),
      { type: "string", default: "EUR", deprecated: true, $comment: "ISO 4217" },
    ],
    [
      "number",
      schema.number({ minimum: 0, maximum: 100, description: "Percent" }),
      { type: "number", minimum: 0, maximum: 100, description: "Percent" },
    ],
    [
      "number exclusive",
      schema.number({ exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 }),
      { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    ],
    [
      "integer",
      schema.integer({ minimum: 1, maximum: 50, default: 10 }),
      { type: "integer", minimum: 1, maximum: 50, default: 10 },
    ],
    [
      "boolean",
      schema.boolean({ default: false, description: "Notify" }),
      { type: "boolean", default: false, description: "Notify" },
    ],
    [
      "array",
      schema.array(schema.integer(), { minItems: 1, maxItems: 20, uniqueItems: true, description: "Ids" }),
      { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 20, uniqueItems: true, description: "Ids" },
    ],
    [
      "object",
      schema.object({ a: schema.string() }, { description: "A thing", minProperties: 1, maxProperties: 3 }),
      {
        type: "object",
        additionalProperties: false,
        properties: { a: { type: "string" } },
        required: ["a"],
        description: "A thing",
        minProperties: 1,
        maxProperties: 3,
      },
    ],
    [
      "union",
      schema.union([schema.literal("open"), schema.literal("closed")], { description: "Status", default: "open" }),
      {
        anyOf: [
          { type: "string", const: "open" },
          { type: "string", const: "closed" },
        ],
        description: "Status",
        default: "open",
      },
    ],
    [
      "literal",
      schema.literal("refund", { description: "Kind" }),
      { type: "string", const: "refund", description: "Kind" },
    ],
    ["null", schema.null({ description: "Nothing" }), { type: "null", description: "Nothing" }],
    ["any", schema.any({ description: "Raw payload" }), { description: "Raw payload" }],
  ];

  test.each(cases)("%s", (_label, built, expected) => {
    expect(json(built)).toEqual(expected);
    // The emitted schema is valid draft-07 for Ajv in strict mode with ajv-formats, as the compiler will use it.
    expect(() => strictAjv().compile(json(built) as object)).not.toThrow();
  });

  test("every format the wrapper accepts is one ajv-formats knows", () => {
    for (const format of SCHEMA_FORMATS) {
      expect(() => strictAjv().compile(json(schema.string({ format })) as object), format).not.toThrow();
    }
  });

  test("formats validate as promised", () => {
    const ajv = strictAjv();
    expect(ajv.validate(json(schema.string({ format: "email" })) as object, "ada@example.com")).toBe(true);
    expect(ajv.validate(json(schema.string({ format: "email" })) as object, "not an email")).toBe(false);
    expect(ajv.validate(json(schema.string({ format: "date-time" })) as object, "2026-03-01T10:00:00Z")).toBe(true);
    expect(ajv.validate(json(schema.string({ format: "date-time" })) as object, "yesterday")).toBe(false);
    expect(ajv.validate(json(schema.string({ format: "uri" })) as object, "https://help.example.com/a")).toBe(true);
    expect(ajv.validate(json(schema.string({ format: "uri" })) as object, "not a uri")).toBe(false);
  });
});

describe("schema: bad options are refused (CAVE1025)", () => {
  test.each([
    ["minLenght", "string", () => schema.string({ minLenght: 1 } as never), /Did you mean "minLength"\?/],
    ["maxItem", "array", () => schema.array(schema.string(), { maxItem: 3 } as never), /Did you mean "maxItems"\?/],
    ["maximun", "number", () => schema.number({ maximun: 3 } as never), /Did you mean "maximum"\?/],
    ["descripton", "boolean", () => schema.boolean({ descripton: "x" } as never), /Did you mean "description"\?/],
    [
      "additionalproperties",
      "object",
      () => schema.object({}, { additionalproperties: true } as never),
      /Did you mean "additionalProperties"\?/,
    ],
    ["maxItems", "string", () => schema.string({ maxItems: 3 } as never), /Known options: .*minLength/],
    ["minLength", "integer", () => schema.integer({ minLength: 1 } as never), /Known options: .*minimum/],
    ["format", "literal", () => schema.literal("a", { format: "email" } as never), /Known options: title, description/],
    ["pattern", "any", () => schema.any({ pattern: "x" } as never), /Known options/],
    ["minimum", "union", () => schema.union([schema.number()], { minimum: 1 } as never), /Known options/],
    ["nullable", "null", () => schema.null({ nullable: true } as never), /Known options/],
  ])("the unknown keyword %s on schema.%s()", (key, builder, build, hint) => {
    expectRule(build, {
      code: "CAVE1025",
      subject: `schema.${builder}()`,
      field: key,
      mentions: `"${key}" is not a JSON Schema keyword for ${builder}`,
      hint,
    });
  });

  test.each([
    ["string", "minLength", () => schema.string({ minLength: -1 }), /non-negative integer/],
    ["string", "minLength", () => schema.string({ minLength: 1.5 }), /non-negative integer/],
    ["string", "maxLength", () => schema.string({ maxLength: "10" as never }), /non-negative integer, got "10"/],
    ["array", "maxItems", () => schema.array(schema.string(), { maxItems: -3 }), /non-negative integer/],
    ["object", "minProperties", () => schema.object({}, { minProperties: 0.5 }), /non-negative integer/],
    ["number", "minimum", () => schema.number({ minimum: "0" as never }), /finite number, got "0"/],
    ["integer", "maximum", () => schema.integer({ maximum: Number.POSITIVE_INFINITY }), /finite number/],
    ["number", "multipleOf", () => schema.number({ multipleOf: Number.NaN }), /finite number/],
    ["string", "pattern", () => schema.string({ pattern: "([a-z" }), /not a valid regular expression/],
    ["string", "pattern", () => schema.string({ pattern: 5 as never }), /not a valid regular expression/],
    ["string", "format", () => schema.string({ format: "e-mail" }), /not a known format/],
    [
      "object",
      "additionalProperties",
      () => schema.object({}, { additionalProperties: "yes" as never }),
      /must be true or false/,
    ],
    [
      "object",
      "additionalProperties",
      () => schema.object({}, { additionalProperties: schema.string() as never }),
      /must be true or false/,
    ],
  ])("schema.%s() with a bad value for %s", (builder, field, build, mentions) => {
    expectRule(build, { code: "CAVE1025", subject: `schema.${builder}()`, field, mentions });
  });

  test('format "e-mail" suggests "email"; "datetime" suggests "date-time"', () => {
    expectRule(() => schema.string({ format: "e-mail" }), {
      code: "CAVE1025",
      subject: "schema.string()",
      field: "format",
      hint: /Did you mean "email"\?/,
    });
    expectRule(() => schema.string({ format: "datetime" }), {
      code: "CAVE1025",
      subject: "schema.string()",
      field: "format",
      hint: /Did you mean "date-time"\?/,
    });
  });

  test.each([
    ["a string", "desc"],
    ["an array", []],
    ["null", null],
  ])("options that are %s", (_label, options) => {
    expectRule(() => schema.string(options as never), {
      code: "CAVE1025",
      subject: "schema.string()",
      field: "options",
      hint: /description/,
    });
  });

  test("every bad keyword is reported", () => {
    const error = expectRule(() => schema.string({ minLenght: 1, format: "mail" } as never), {
      code: "CAVE1025",
      subject: "schema.string()",
      field: "minLenght",
      count: 2,
    });
    expect(error.violations.map((v) => v.field)).toEqual(["minLenght", "format"]);
  });
});

describe("schema: arguments must be schema.* values (CAVE1025)", () => {
  test.each([
    ["object", "properties.orderId", () => schema.object({ orderId: { type: "string" } } as never)],
    ["object", "properties", () => schema.object(null as never)],
    ["object", "properties", () => schema.object([schema.string()] as never)],
    ["array", "items", () => schema.array({ type: "string" } as never)],
    ["array", "items", () => schema.array(undefined as never)],
    ["optional", "item", () => schema.optional("string" as never)],
    ["union", "members", () => schema.union([] as never)],
    ["union", "members", () => schema.union(schema.string() as never)],
    ["union", "members[1]", () => schema.union([schema.string(), { type: "null" }] as never)],
  ])("schema.%s() with a bad %s", (builder, field, build) => {
    expectRule(build, { code: "CAVE1025", subject: `schema.${builder}()`, field, hint: /schema/ });
  });

  test.each([
    ["null", null],
    ["undefined", undefined],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["an object", {}],
    ["an array", [1]],
    ["a bigint", 10n],
  ])("schema.literal(%s) is refused", (_label, value) => {
    expectRule(() => schema.literal(value as never), {
      code: "CAVE1025",
      subject: "schema.literal()",
      field: "value",
      mentions: /string, finite number or boolean/,
      hint: /schema\.null\(\)/,
    });
  });
});
