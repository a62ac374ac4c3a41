/**
 * A reading of docs/cave.lock.schema.json (its definitions, as lock-shape.generated.ts carries them) that says whether a
 * value certainly has the shape a schema states. It answers only for a schema made entirely of the keywords it knows,
 * and then exactly; for any other schema it answers false, and the caller asks Ajv's validator compiled ahead, which
 * also decides every value this refuses and words the refusal (check-shape.ts). So it can make no lock valid that the
 * schema refuses; test/runtime/shape-accepts.test.ts holds it to Ajv's verdicts on produced locks and their mutations.
 *
 * Why it exists: on a cold start a tool's first read compiled Ajv's tool validator, tens of KB of generated code, for
 * one entry (issue 20: ~5-10 ms of the first call); walking the schema as data costs a fraction of that. The header,
 * with one hash per tool, is checked by Ajv's header validator, which walks a thousand entries faster than this does.
 *
 * Meaning as Ajv's options for the lock (scripts/generate-lock-validator.mjs): own properties only, lengths in UTF-16
 * code units, patterns with the u flag, keywords applied only to the types they are about.
 */
export type SchemaDefinitions = Readonly<Record<string, unknown>>;

const REF = "#/definitions/";
/** The keywords read here; those in SUBSCHEMAS hold schemas themselves. */
const LEAVES = new Set([
  "type",
  "const",
  "enum",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "uniqueItems",
  "minProperties",
  "required",
]);
const SUBSCHEMAS = new Set(["$ref", "oneOf", "not", "items", "properties", "additionalProperties", "propertyNames"]);
const patterns = new Map<string, RegExp>();
const understoodSchemas = new WeakMap<object, boolean>();

/** Whether `value` certainly has the shape `schema` states; `definitions` resolves `#/definitions/<name>` refs. */
export function acceptsShape(schema: unknown, value: unknown, definitions: SchemaDefinitions): boolean {
  return understood(schema, definitions) && valid(schema, value, definitions);
}

/** A schema of known keywords only, down through its subschemas and refs (a ref being read counts as understood). */
function understood(schema: unknown, definitions: SchemaDefinitions): boolean {
  if (typeof schema === "boolean") return true;
  if (!isRecord(schema)) return false;
  const known = understoodSchemas.get(schema);
  if (known !== undefined) return known;
  understoodSchemas.set(schema, true);
  const answer = Object.keys(schema).every((key) => {
    const s = schema[key];
    if (LEAVES.has(key)) return true;
    if (!SUBSCHEMAS.has(key)) return false;
    switch (key) {
      case "$ref": {
        const name = typeof s === "string" && s.startsWith(REF) ? s.slice(REF.length) : "";
        return Object.hasOwn(definitions, name) && understood(definitions[name], definitions);
      }
      case "oneOf":
        return Array.isArray(s) && s.every((branch) => understood(branch, definitions));
      case "properties":
        return isRecord(s) && Object.values(s).every((property) => understood(property, definitions));
      default:
        return understood(s, definitions);
    }
  });
  understoodSchemas.set(schema, answer);
  return answer;
}

/** Whether `value` has the shape of `schema`, a schema understood() accepts. */
function valid(schema: unknown, value: unknown, definitions: SchemaDefinitions): boolean {
  if (typeof schema === "boolean") return schema;
  const record = schema as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!holds(key, record[key] as never, record, value, definitions)) return false;
  return true;
}

function holds(
  key: string,
  s: never,
  schema: Record<string, unknown>,
  value: unknown,
  definitions: SchemaDefinitions,
): boolean {
  switch (key) {
    case "$ref":
      return valid(definitions[(s as string).slice(REF.length)], value, definitions);
    case "type":
      return Array.isArray(s) ? (s as unknown[]).some((type) => isOfType(type, value)) : isOfType(s, value);
    case "const":
      return equal(s, value);
    case "enum":
      return Array.isArray(s) && (s as unknown[]).some((allowed) => equal(allowed, value));
    case "oneOf": {
      let passing = 0;
      for (const branch of s as unknown[]) if (valid(branch, value, definitions) && ++passing > 1) return false;
      return passing === 1;
    }
    case "not":
      return !valid(s, value, definitions);
    case "pattern":
      return typeof value !== "string" || (typeof s === "string" && regex(s).test(value));
    case "minLength":
      return typeof value !== "string" || value.length >= s;
    case "maxLength":
      return typeof value !== "string" || value.length <= s;
    case "minimum":
      return typeof value !== "number" || value >= s;
    case "maximum":
      return typeof value !== "number" || value <= s;
    case "minItems":
      return !Array.isArray(value) || value.length >= s;
    case "uniqueItems":
      return s !== true || !Array.isArray(value) || distinct(value);
    case "items":
      return !Array.isArray(value) || value.every((item) => valid(s, item, definitions));
    case "minProperties":
      return !isRecord(value) || Object.keys(value).length >= s;
    case "required":
      return !isRecord(value) || (s as unknown[]).every((p) => typeof p === "string" && present(value, p));
    case "properties": {
      if (!isRecord(value)) return true;
      const properties = s as Record<string, unknown>;
      for (const p of Object.keys(properties))
        if (present(value, p) && !valid(properties[p], value[p], definitions)) return false;
      return true;
    }
    case "additionalProperties": {
      if (!isRecord(value)) return true;
      const known = isRecord(schema.properties) ? schema.properties : {};
      for (const p of Object.keys(value))
        if (!Object.hasOwn(known, p) && !valid(s, value[p], definitions)) return false;
      return true;
    }
    case "propertyNames":
      return !isRecord(value) || Object.keys(value).every((p) => valid(s, p, definitions));
    default:
      return false;
  }
}

function isOfType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "object":
      return isRecord(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    default:
      return false;
  }
}

function present(value: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(value, key) && value[key] !== undefined;
}

function distinct(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return false;
  return true;
}

/** JSON equality: the same primitive, or arrays and objects with equal items and the same own keys. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => equal(item, b[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

function regex(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) patterns.set(pattern, (compiled = new RegExp(pattern, "u")));
  return compiled;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
