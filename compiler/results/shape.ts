import { deref, isObject, pointer, typesOf, type JsonSchema } from "./schema-nav.js";

/**
 * What an output looks like, as far as the schema says: the planner's choice of strategy and the
 * transforms' eligibility read this, never the raw schema.
 */
export type OutputShape =
  | { readonly kind: "records"; readonly flat: boolean; readonly closed: boolean; readonly nonScalar: string | null }
  | { readonly kind: "array" }
  | { readonly kind: "text" }
  | { readonly kind: "structured" }
  | { readonly kind: "scalar" }
  | { readonly kind: "unknown"; readonly why: string };

const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

export function outputShape(schema: Record<string, unknown> | null): OutputShape {
  if (schema === null) return { kind: "unknown", why: "the tool has no output JSON Schema" };
  const top = deref(schema, schema, "");
  if ("error" in top) return { kind: "unknown", why: top.error };
  if (typeof top.schema === "boolean") return { kind: "unknown", why: "the output schema allows any value" };
  const types = typesOf(top.schema);
  if (types === null) return { kind: "unknown", why: "the output schema has no type" };
  if (types.length === 1 && types[0] === "string") return { kind: "text" };
  if (types.length === 1 && types[0] === "array") return arrayShape(schema, top.schema);
  if (types.every((t) => t === "object" || t === "array")) return { kind: "structured" };
  if (types.every((t) => SCALAR_TYPES.has(t))) return { kind: "scalar" };
  return { kind: "unknown", why: `the output may be any of ${types.join(", ")}` };
}

function arrayShape(root: JsonSchema, array: Record<string, unknown>): OutputShape {
  if (!isObject(array.items) && array.items !== undefined) return { kind: "array" };
  const items = deref(root, (array.items ?? true) as JsonSchema, "/items");
  if ("error" in items || typeof items.schema === "boolean") return { kind: "array" };
  const types = typesOf(items.schema);
  if (types === null || types.length !== 1 || types[0] !== "object") return { kind: "array" };
  const properties = isObject(items.schema.properties) ? items.schema.properties : {};
  let nonScalar: string | null = null;
  for (const key of Object.keys(properties).sort()) {
    if (!isScalar(root, properties[key] as JsonSchema)) {
      nonScalar = `${items.path}/properties${pointer(key)}`;
      break;
    }
  }
  const closed = items.schema.additionalProperties === false;
  return { kind: "records", flat: nonScalar === null && closed, closed, nonScalar };
}

function isScalar(root: JsonSchema, input: JsonSchema): boolean {
  const resolved = deref(root, input, "");
  if ("error" in resolved || typeof resolved.schema === "boolean") return false;
  const schema = resolved.schema;
  if (Object.hasOwn(schema, "const")) return isScalarValue(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.every(isScalarValue);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return branches.every((branch) => isScalar(root, branch as JsonSchema));
  }
  const types = typesOf(schema);
  return types !== null && types.every((t) => SCALAR_TYPES.has(t));
}

function isScalarValue(value: unknown): boolean {
  return value === null || typeof value !== "object";
}
