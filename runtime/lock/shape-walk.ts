import type { ShapeError } from "./shape-problem.js";

/**
 * The check of a tool's entry against docs/cave.lock.schema.json, walking the schema as data (its definitions as
 * scripts/generate-lock-validator.mjs gives them to Ajv, in lock-shape.generated.ts) instead of running code compiled
 * from it. It finds the first problem Ajv's validator compiled ahead from the same schema would report, as Ajv reports
 * it (shape-problem.ts words it): keywords in Ajv's order, the schema path from the nearest definition Ajv compiles
 * as a function of its own, tagged unions by their discriminator. test/runtime/shape-walk.test.ts holds the two to
 * the same words on every committed lock's entries and thousands of seeded mutations of them.
 *
 * Why: Ajv's tool validator is ~170 KB of generated code, most of what the runtime's import parsed, and tens of KB
 * that V8 compiled again on the first entry checked (~9-13 ms of a cold first call); the schema as data is ~10 KB.
 * The header keeps Ajv's validator: it walks a thousand `toolHashes` faster than a walk of the schema does.
 *
 * Meaning as Ajv's options for the lock (scripts/generate-lock-validator.mjs): the first problem only, own properties
 * only, lengths in UTF-16 code units, patterns with the u flag, keywords applied only to the types they are about.
 */
export type SchemaDefinitions = Readonly<Record<string, unknown>>;

type Schema = Readonly<Record<string, unknown>>;
type Found = ShapeError | undefined;

const REF = "#/definitions/";
/** Ajv's keyword groups, in the order it checks them: keywords for any type, then by the type they are about (items
 * before uniqueItems: Ajv's items keyword asks to come first). */
const ANY = ["$ref", "const", "enum", "not", "oneOf"];
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ["number", ["maximum", "minimum"]],
  ["string", ["maxLength", "minLength", "pattern"]],
  ["array", ["minItems", "items", "uniqueItems"]],
  ["object", ["minProperties", "required", "propertyNames", "additionalProperties", "properties", "discriminator"]],
];
const KNOWN = new Set(["type", ...ANY, ...GROUPS.flatMap(([, keywords]) => keywords)]);
const patterns = new Map<string, RegExp>();
const ownFunction = new WeakMap<object, boolean>();

/** The first problem with `value` as the definition `name` states it, or undefined when it has that shape. */
export function firstShapeError(definitions: SchemaDefinitions, name: string, value: unknown): Found {
  return walk(definitions[name] as Schema, value, { definitions, instancePath: "", schemaPath: "#" });
}

interface At {
  readonly definitions: SchemaDefinitions;
  /** JSON pointer of the value checked. */
  readonly instancePath: string;
  /** Where the schema checked is, as Ajv names it: from the root of the function it compiles the schema into. */
  readonly schemaPath: string;
}

function walk(schema: Schema, value: unknown, at: At): Found {
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`the lock schema uses ${key}, which runtime/lock/shape-walk.ts does not read`);
  const types =
    schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  // Ajv checks the type first, unless there is one type and keywords about it: then where that group is checked.
  const deferred =
    types.length === 1 && GROUPS.some(([type, keywords]) => type === types[0] && keywords.some((k) => k in schema));
  if (types.length > 0 && !deferred && !types.some((type) => isOfType(type, value)))
    return error(at, "type", "type", { type: types.length === 1 ? types[0] : types });
  for (const keyword of ANY) {
    if (!(keyword in schema)) continue;
    // A tagged union is checked by its discriminator, in the object group.
    if (keyword === "oneOf" && "discriminator" in schema) continue;
    const found = check(keyword, schema, value, at);
    if (found !== undefined) return found;
  }
  for (const [type, keywords] of GROUPS) {
    if (!keywords.some((k) => k in schema)) continue;
    if (!isOfType(type, value)) {
      if (deferred && types[0] === type) return error(at, "type", "type", { type });
      continue;
    }
    for (const keyword of keywords) {
      if (!(keyword in schema)) continue;
      const found = check(keyword, schema, value, at);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function check(keyword: string, schema: Schema, value: unknown, at: At): Found {
  const s = schema[keyword] as never;
  switch (keyword) {
    case "$ref": {
      const name = (s as string).slice(REF.length);
      const target = at.definitions[name] as Schema;
      // Ajv inlines a definition that holds no $ref, naming its places from the definition; others are functions.
      return walk(target, value, { ...at, schemaPath: compiledApart(target) ? "#" : `${REF}${name}` });
    }
    case "const":
      return equal(s, value) ? undefined : error(at, keyword, keyword, { allowedValue: s });
    case "enum":
      return (s as unknown[]).some((allowed) => equal(allowed, value))
        ? undefined
        : error(at, keyword, keyword, { allowedValues: s });
    case "not":
      return walk(s, value, below(at, "not")) === undefined ? error(at, keyword, keyword, {}) : undefined;
    case "oneOf": {
      let first: Found;
      let passing = 0;
      (s as Schema[]).forEach((branch, i) => {
        const found = walk(branch, value, below(at, `oneOf/${i}`));
        if (found === undefined) passing++;
        else first ??= found;
      });
      if (passing === 1) return undefined;
      return first ?? error(at, keyword, keyword, { passingSchemas: null });
    }
    case "maximum":
      return (value as number) <= s ? undefined : error(at, keyword, keyword, { comparison: "<=", limit: s });
    case "minimum":
      return (value as number) >= s ? undefined : error(at, keyword, keyword, { comparison: ">=", limit: s });
    case "maxLength":
      return (value as string).length <= s ? undefined : error(at, keyword, keyword, { limit: s });
    case "minLength":
      return (value as string).length >= s ? undefined : error(at, keyword, keyword, { limit: s });
    case "pattern":
      return regex(s).test(value as string) ? undefined : error(at, keyword, keyword, { pattern: s });
    case "minItems":
      return (value as unknown[]).length >= s ? undefined : error(at, keyword, keyword, { limit: s });
    case "uniqueItems": {
      if (s !== true) return undefined;
      const items = value as unknown[];
      for (let i = items.length; i-- > 0; )
        for (let j = i; j-- > 0; ) if (equal(items[i], items[j])) return error(at, keyword, keyword, { i, j });
      return undefined;
    }
    case "items": {
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const found = walk(s, items[i], below(at, "items", i));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "minProperties":
      return Object.keys(value as object).length >= s ? undefined : error(at, keyword, keyword, { limit: s });
    case "required": {
      const missing = (s as string[]).find((p) => !present(value as Record<string, unknown>, p));
      return missing === undefined ? undefined : error(at, keyword, keyword, { missingProperty: missing });
    }
    case "propertyNames": {
      for (const key of Object.keys(value as object)) {
        const found = walk(s, key, below(at, "propertyNames"));
        if (found !== undefined) return { ...found, instancePath: at.instancePath, propertyName: key };
      }
      return undefined;
    }
    case "additionalProperties": {
      const known = (schema.properties ?? {}) as Schema;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (Object.hasOwn(known, key)) continue;
        if (s === false) return error(at, keyword, keyword, { additionalProperty: key });
        const found = walk(s, record[key], below(at, "additionalProperties", key));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "properties": {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(s)) {
        if (!present(record, key)) continue;
        const found = walk((s as Schema)[key] as Schema, record[key], below(at, `properties/${escaped(key)}`, key));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "discriminator":
      return discriminated(schema, value as Record<string, unknown>, at);
    default:
      return undefined;
  }
}

/** A union told apart by a tag: the branch the tag names, as Ajv's discriminator chooses it. */
function discriminated(schema: Schema, value: Record<string, unknown>, at: At): Found {
  const tag = (schema.discriminator as { propertyName: string }).propertyName;
  const tagValue = value[tag];
  if (typeof tagValue !== "string") return error(at, "discriminator", "discriminator", { error: "tag", tag, tagValue });
  const branches = schema.oneOf as Schema[];
  const index = branches.findIndex((branch) => {
    const property = (branch.properties as Record<string, Schema>)[tag]!;
    return property.const === tagValue || (Array.isArray(property.enum) && property.enum.includes(tagValue));
  });
  if (index === -1) return error(at, "discriminator", "discriminator", { error: "mapping", tag, tagValue });
  return walk(branches[index]!, value, below(at, `oneOf/${index}`));
}

/** Whether Ajv compiles a definition into a function of its own (it holds a $ref) rather than inline. */
function compiledApart(schema: object): boolean {
  let answer = ownFunction.get(schema);
  if (answer === undefined) ownFunction.set(schema, (answer = holdsRef(schema)));
  return answer;
}

function holdsRef(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsRef);
  return Object.hasOwn(value, "$ref") || Object.values(value).some(holdsRef);
}

function below(at: At, schemaStep: string, dataStep?: string | number): At {
  return {
    definitions: at.definitions,
    instancePath: dataStep === undefined ? at.instancePath : `${at.instancePath}/${escaped(String(dataStep))}`,
    schemaPath: `${at.schemaPath}/${schemaStep}`,
  };
}

function error(at: At, schemaStep: string, keyword: string, params: Record<string, unknown>): ShapeError {
  return { instancePath: at.instancePath, schemaPath: `${at.schemaPath}/${schemaStep}`, keyword, params };
}

/** A JSON pointer segment. */
function escaped(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function isOfType(type: string, value: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
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
