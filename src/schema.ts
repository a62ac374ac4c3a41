import {
  String as TypeString,
  Number as TypeNumber,
  Integer as TypeInteger,
  Boolean as TypeBoolean,
  Object as TypeObject,
  Array as TypeArray,
  Optional as TypeOptional,
  Union as TypeUnion,
  Literal as TypeLiteral,
  Null as TypeNull,
  Any as TypeAny,
  type TSchema,
  type TProperties,
  type TLiteralValue,
  type StringOptions,
  type NumberOptions,
  type IntegerOptions,
  type ObjectOptions,
  type ArrayOptions,
  type SchemaOptions,
} from "@sinclair/typebox";
import { CaveError, type Violation } from "./errors.js";
import { unknownKeyHint } from "./contract/suggest.js";

/**
 * `schema`: a small TypeBox wrapper. Every builder returns a plain TypeBox schema (JSON Schema with
 * TypeBox's symbol brands), so `Static<typeof s>` works and the compiler can precompile it.
 * Options are JSON Schema keywords; unknown ones are refused at definition time.
 */
const ANNOTATIONS = [
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
] as const;
const STRING_KEYWORDS = [
  ...ANNOTATIONS,
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "contentEncoding",
  "contentMediaType",
] as const;
const NUMBER_KEYWORDS = [
  ...ANNOTATIONS,
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
] as const;
const OBJECT_KEYWORDS = [...ANNOTATIONS, "additionalProperties", "minProperties", "maxProperties"] as const;
const ARRAY_KEYWORDS = [...ANNOTATIONS, "minItems", "maxItems", "uniqueItems"] as const;

/** Formats the compiled validators understand (ajv-formats, full mode). */
export const SCHEMA_FORMATS = [
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
  "float",
  "double",
  "password",
  "binary",
] as const;

function checkOptions(builder: string, options: object | undefined, keywords: readonly string[]): void {
  if (options === undefined) return;
  const where = `schema.${builder}()`;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new CaveError(where, [
      {
        code: "CAVE1025",
        field: "options",
        message: "options must be an object of JSON Schema keywords",
        hint: 'Pass for example { description: "..." }.',
      },
    ]);
  }
  const violations: Violation[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (!keywords.includes(key)) {
      violations.push({
        code: "CAVE1025",
        field: key,
        message: `"${key}" is not a JSON Schema keyword for ${builder}`,
        hint: unknownKeyHint(key, keywords),
      });
    } else if (
      /^(min|max)(Length|Items|Properties|Contains)$/.test(key) &&
      !(Number.isSafeInteger(value) && (value as number) >= 0)
    ) {
      violations.push({
        code: "CAVE1025",
        field: key,
        message: `${key} must be a non-negative integer, got ${JSON.stringify(value)}`,
        hint: `Give ${key} as a whole number.`,
      });
    } else if (
      /^(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf)$/.test(key) &&
      !(typeof value === "number" && Number.isFinite(value))
    ) {
      violations.push({
        code: "CAVE1025",
        field: key,
        message: `${key} must be a finite number, got ${JSON.stringify(value)}`,
        hint: `Give ${key} as a number.`,
      });
    } else if (key === "pattern" && !isRegex(value)) {
      violations.push({
        code: "CAVE1025",
        field: key,
        message: `pattern ${JSON.stringify(value)} is not a valid regular expression`,
        hint: "Give the pattern as a string in ECMAScript regex syntax (with the u flag).",
      });
    } else if (key === "format" && !(SCHEMA_FORMATS as readonly unknown[]).includes(value)) {
      violations.push({
        code: "CAVE1025",
        field: key,
        message: `format ${JSON.stringify(value)} is not a known format`,
        hint: unknownKeyHint(String(value), SCHEMA_FORMATS),
      });
    } else if (key === "additionalProperties" && typeof value !== "boolean") {
      violations.push({
        code: "CAVE1025",
        field: key,
        message: "additionalProperties must be true or false",
        hint: "Objects are closed by default; pass additionalProperties: true to open one.",
      });
    }
  }
  if (violations.length > 0) throw new CaveError(where, violations);
}

function isRegex(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

function checkSchemaArgument(builder: string, field: string, value: unknown): void {
  if (typeof value !== "object" || value === null || !(Symbol.for("TypeBox.Kind") in value)) {
    throw new CaveError(`schema.${builder}()`, [
      {
        code: "CAVE1025",
        field,
        message: `${field} is not a schema.* value`,
        hint: "Build nested schemas with schema.* too.",
      },
    ]);
  }
}

export const schema = {
  /** A string; options: minLength, maxLength, pattern, format, description... */
  string: (options?: StringOptions) => (checkOptions("string", options, STRING_KEYWORDS), TypeString(options)),
  /** A number; options: minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf... */
  number: (options?: NumberOptions) => (checkOptions("number", options, NUMBER_KEYWORDS), TypeNumber(options)),
  /** An integer; same options as number. */
  integer: (options?: IntegerOptions) => (checkOptions("integer", options, NUMBER_KEYWORDS), TypeInteger(options)),
  /** A boolean. */
  boolean: (options?: SchemaOptions) => (checkOptions("boolean", options, ANNOTATIONS), TypeBoolean(options)),
  /** An object, closed by default (additionalProperties: false); pass additionalProperties: true to open it. */
  object: <P extends TProperties>(properties: P, options?: ObjectOptions) => {
    checkOptions("object", options, OBJECT_KEYWORDS);
    if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
      throw new CaveError("schema.object()", [
        {
          code: "CAVE1025",
          field: "properties",
          message: "properties must be an object of schemas",
          hint: "Pass schema.object({ key: schema.string() }).",
        },
      ]);
    }
    for (const [key, value] of Object.entries(properties)) checkSchemaArgument("object", `properties.${key}`, value);
    return TypeObject(properties, { additionalProperties: false, ...options });
  },
  /** An array of one item schema; options: minItems, maxItems, uniqueItems... */
  array: <T extends TSchema>(items: T, options?: ArrayOptions) => (
    checkOptions("array", options, ARRAY_KEYWORDS),
    checkSchemaArgument("array", "items", items),
    TypeArray(items, options)
  ),
  /** Marks an object property as optional. */
  optional: <T extends TSchema>(item: T) => (checkSchemaArgument("optional", "item", item), TypeOptional(item)),
  /** One of several schemas (anyOf). */
  union: <T extends TSchema[]>(members: [...T], options?: SchemaOptions) => {
    checkOptions("union", options, ANNOTATIONS);
    if (!Array.isArray(members) || members.length === 0) {
      throw new CaveError("schema.union()", [
        {
          code: "CAVE1025",
          field: "members",
          message: "union needs a non-empty array of schemas",
          hint: "Pass schema.union([schema.string(), schema.number()]).",
        },
      ]);
    }
    members.forEach((member, i) => checkSchemaArgument("union", `members[${i}]`, member));
    return TypeUnion(members, options);
  },
  /** Exactly one string, number or boolean value (const). */
  literal: <T extends TLiteralValue>(value: T, options?: SchemaOptions) => {
    checkOptions("literal", options, ANNOTATIONS);
    if (
      !["string", "number", "boolean"].includes(typeof value) ||
      (typeof value === "number" && !Number.isFinite(value))
    ) {
      throw new CaveError("schema.literal()", [
        {
          code: "CAVE1025",
          field: "value",
          message: `a literal must be a string, finite number or boolean, got ${String(value)}`,
          hint: "Use schema.null() for null.",
        },
      ]);
    }
    return TypeLiteral(value, options);
  },
  /** The value null. */
  null: (options?: SchemaOptions) => (checkOptions("null", options, ANNOTATIONS), TypeNull(options)),
  /** Any JSON value (no constraint). */
  any: (options?: SchemaOptions) => (checkOptions("any", options, ANNOTATIONS), TypeAny(options)),
} as const;

export type { Static, TSchema } from "@sinclair/typebox";
