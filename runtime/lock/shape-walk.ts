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
 * The runtime's start-up walks the header too, whose thousand `toolHashes` lines it checks apart (hash-lines.ts): a
 * walk of those is slower than Ajv's validator, which whole-lock checks keep.
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
  const problem = walk(definitions[name] as Schema, value, definitions);
  if (problem === undefined) return undefined;
  const { keyword, params, propertyName, dataSteps, schemaSteps, base } = problem;
  return {
    instancePath: dataSteps
      .reverse()
      .map((step) => `/${escaped(step)}`)
      .join(""),
    schemaPath: [base ?? "#", ...schemaSteps.reverse()].join("/"),
    keyword,
    params,
    ...(propertyName === undefined ? {} : { propertyName }),
  };
}

/**
 * A problem on its way out of the walk: its places are collected as it returns through each level (innermost first),
 * so a value that has its shape costs no path strings. `base` is set by the first definition it leaves that Ajv
 * compiles apart or inlines: the schema path goes no further up.
 */
interface Problem {
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  propertyName?: string;
  readonly dataSteps: string[];
  readonly schemaSteps: string[];
  base?: string;
}

/** What walk() needs of a schema, worked out once per schema object. */
interface Plan {
  readonly types: readonly string[];
  /** One type with keywords of its own group: Ajv checks the type where that group is checked, not first. */
  readonly deferred: boolean;
  readonly any: readonly string[];
  readonly groups: readonly (readonly [string, readonly string[]])[];
}
const plans = new WeakMap<object, Plan>();

function planOf(schema: Schema): Plan {
  let plan = plans.get(schema);
  if (plan !== undefined) return plan;
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`the lock schema uses ${key}, which runtime/lock/shape-walk.ts does not read`);
  const types =
    schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const groups = GROUPS.map(([type, keywords]) => [type, keywords.filter((k) => k in schema)] as const).filter(
    ([, keywords]) => keywords.length > 0,
  );
  plan = {
    types,
    deferred: types.length === 1 && groups.some(([type]) => type === types[0]),
    // A tagged union is checked by its discriminator, in the object group.
    any: ANY.filter((k) => k in schema && !(k === "oneOf" && "discriminator" in schema)),
    groups,
  };
  plans.set(schema, plan);
  return plan;
}

function walk(schema: Schema, value: unknown, definitions: SchemaDefinitions): Problem | undefined {
  const plan = planOf(schema);
  const { types, deferred } = plan;
  if (types.length > 0 && !deferred && !types.some((type) => isOfType(type, value)))
    return problem("type", "type", { type: types.length === 1 ? types[0] : types });
  for (const keyword of plan.any) {
    const found = check(keyword, schema, value, definitions);
    if (found !== undefined) return found;
  }
  for (const [type, keywords] of plan.groups) {
    if (!isOfType(type, value)) {
      if (deferred && types[0] === type) return problem("type", "type", { type });
      continue;
    }
    for (const keyword of keywords) {
      const found = check(keyword, schema, value, definitions);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The walk one level down: a problem found there gets this level's schema step (`step`, with `key` after it when
 * given, both written only then) and, if any, the value's key.
 */
function below(
  schema: Schema,
  value: unknown,
  definitions: SchemaDefinitions,
  step: string,
  key?: string | number,
  dataStep?: string | number,
): Problem | undefined {
  const found = walk(schema, value, definitions);
  if (found === undefined) return undefined;
  if (found.base === undefined) found.schemaSteps.push(key === undefined ? step : `${step}/${escaped(String(key))}`);
  if (dataStep !== undefined) found.dataSteps.push(String(dataStep));
  return found;
}

function check(keyword: string, schema: Schema, value: unknown, definitions: SchemaDefinitions): Problem | undefined {
  const s = schema[keyword] as never;
  switch (keyword) {
    case "$ref": {
      const name = (s as string).slice(REF.length);
      const target = definitions[name] as Schema;
      const found = walk(target, value, definitions);
      // Ajv inlines a definition that holds no $ref, naming its places from the definition; others are functions.
      if (found !== undefined && found.base === undefined) found.base = compiledApart(target) ? "#" : `${REF}${name}`;
      return found;
    }
    case "const":
      return equal(s, value) ? undefined : problem(keyword, keyword, { allowedValue: s });
    case "enum":
      return (s as unknown[]).some((allowed) => equal(allowed, value))
        ? undefined
        : problem(keyword, keyword, { allowedValues: s });
    case "not":
      return walk(s, value, definitions) === undefined ? problem(keyword, keyword, {}) : undefined;
    case "oneOf": {
      let first: Problem | undefined;
      let passing = 0;
      (s as Schema[]).forEach((branch, i) => {
        const found = below(branch, value, definitions, "oneOf", i);
        if (found === undefined) passing++;
        else first ??= found;
      });
      if (passing === 1) return undefined;
      return first ?? problem(keyword, keyword, { passingSchemas: null });
    }
    case "maximum":
      return (value as number) <= s ? undefined : problem(keyword, keyword, { comparison: "<=", limit: s });
    case "minimum":
      return (value as number) >= s ? undefined : problem(keyword, keyword, { comparison: ">=", limit: s });
    case "maxLength":
      return (value as string).length <= s ? undefined : problem(keyword, keyword, { limit: s });
    case "minLength":
      return (value as string).length >= s ? undefined : problem(keyword, keyword, { limit: s });
    case "pattern":
      return regex(s).test(value as string) ? undefined : problem(keyword, keyword, { pattern: s });
    case "minItems":
      return (value as unknown[]).length >= s ? undefined : problem(keyword, keyword, { limit: s });
    case "uniqueItems": {
      if (s !== true) return undefined;
      const items = value as unknown[];
      for (let i = items.length; i-- > 0; )
        for (let j = i; j-- > 0; ) if (equal(items[i], items[j])) return problem(keyword, keyword, { i, j });
      return undefined;
    }
    case "items": {
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const found = below(s, items[i], definitions, "items", undefined, i);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "minProperties":
      return Object.keys(value as object).length >= s ? undefined : problem(keyword, keyword, { limit: s });
    case "required": {
      const missing = (s as string[]).find((p) => !present(value as Record<string, unknown>, p));
      return missing === undefined ? undefined : problem(keyword, keyword, { missingProperty: missing });
    }
    case "propertyNames": {
      for (const key of Object.keys(value as object)) {
        // A key's problem is reported at the object, naming the key.
        const found = below(s, key, definitions, "propertyNames");
        if (found !== undefined) return Object.assign(found, { propertyName: key });
      }
      return undefined;
    }
    case "additionalProperties": {
      const known = (schema.properties ?? {}) as Schema;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (Object.hasOwn(known, key)) continue;
        if (s === false) return problem(keyword, keyword, { additionalProperty: key });
        const found = below(s, record[key], definitions, "additionalProperties", undefined, key);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "properties": {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(s)) {
        if (!present(record, key)) continue;
        const found = below((s as Schema)[key] as Schema, record[key], definitions, "properties", key, key);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "discriminator":
      return discriminated(schema, value as Record<string, unknown>, definitions);
    default:
      return undefined;
  }
}

/** A union told apart by a tag: the branch the tag names, as Ajv's discriminator chooses it. */
function discriminated(
  schema: Schema,
  value: Record<string, unknown>,
  definitions: SchemaDefinitions,
): Problem | undefined {
  const tag = (schema.discriminator as { propertyName: string }).propertyName;
  const tagValue = value[tag];
  if (typeof tagValue !== "string") return problem("discriminator", "discriminator", { error: "tag", tag, tagValue });
  const branches = schema.oneOf as Schema[];
  const index = branches.findIndex((branch) => {
    const property = (branch.properties as Record<string, Schema>)[tag]!;
    return property.const === tagValue || (Array.isArray(property.enum) && property.enum.includes(tagValue));
  });
  if (index === -1) return problem("discriminator", "discriminator", { error: "mapping", tag, tagValue });
  return below(branches[index]!, value, definitions, "oneOf", index);
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

/** A problem found by a keyword of the schema walked now (its schema step is the keyword's). */
function problem(schemaStep: string, keyword: string, params: Record<string, unknown>): Problem {
  return { keyword, params, dataSteps: [], schemaSteps: [schemaStep] };
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
