/** A subschema (an object schema) and where it is, as a JSON Pointer fragment ("#", "#/properties/a"). */
export interface SchemaNode {
  readonly pointer: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

// Where draft-07 keeps subschemas. Only these are walked: the keys of `properties` are names, and the values of
// const, enum, default and examples are data, so neither is mistaken for a keyword.
const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "dependencies"] as const;
const SCHEMA_VALUES = [
  "additionalItems",
  "additionalProperties",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "not",
  "items",
] as const;
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "items"] as const;

/** Every object subschema of a draft-07 schema, depth first, in key order (the caller passes canonical JSON, so sorted). */
export function* walkSchema(schema: unknown, pointer = "#"): Generator<SchemaNode> {
  if (!isObject(schema)) return;
  yield { pointer, schema };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isObject(map)) continue;
    for (const [name, value] of Object.entries(map))
      yield* walkSchema(value, `${pointer}/${key}/${escapePointer(name)}`);
  }
  for (const key of SCHEMA_VALUES) {
    if (isObject(schema[key])) yield* walkSchema(schema[key], `${pointer}/${key}`);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list))
      for (const [i, value] of list.entries()) yield* walkSchema(value, `${pointer}/${key}/${i}`);
  }
}

export function escapePointer(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
