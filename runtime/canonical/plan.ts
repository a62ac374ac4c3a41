/**
 * The canonical walk of a schema as data: which values have a shape fixed by the schema (closed objects, arrays,
 * leaves), and which of the schema's keywords the walk decides, with their bounds. The build emits code from a plan
 * (compiler/validators/canonical.ts), the runtime interprets the same plan for a tool's first calls
 * (interpret.ts): both decide from this one description, and each is checked against the general walk and against
 * Ajv (test/runtime/canonical-differential.test.ts, canonical-validates.test.ts).
 *
 * A check is sound: when it holds, Ajv with the options every validator is compiled with
 * (compiler/validators/ajv-options.ts) accepts the node's keywords for that value, so a walk whose every check held
 * has a value the validator accepts. It may be stricter than Ajv: a keyword it cannot decide exactly (`format`,
 * `uniqueItems`, a fractional multipleOf) makes the node's check `null`, undecided, and the value goes to Ajv, which
 * decides and words the issues.
 */
export type CanonicalPlan = ObjectPlan | ArrayPlan | LeafPlan;

export interface ObjectPlan {
  readonly kind: "object";
  /** The closed object's properties, in the schema's key order: no other key is taken. */
  readonly properties: ReadonlyArray<readonly [string, CanonicalPlan]>;
  /** Indexes into `properties` in code-unit order of their keys: the order of the canonical text. */
  readonly sorted: readonly number[];
  readonly check: ObjectCheck | null;
}

export interface ArrayPlan {
  readonly kind: "array";
  readonly items: CanonicalPlan;
  readonly check: ArrayCheck | null;
}

export interface LeafPlan {
  readonly kind: "leaf";
  /** The JSON types the walk takes as is (a number: finite). */
  readonly types: ReadonlySet<LeafType>;
  readonly check: LeafCheck | null;
}

export type LeafType = "string" | "number" | "boolean" | "null";
export type TypeName = LeafType | "integer";
export type Primitive = string | number | boolean | null;

/** A closed object's keywords once its keys are read: `additionalProperties: false` and `properties` are its plan itself. */
export interface ObjectCheck {
  /** Each once, every one a property of the plan. */
  readonly required: readonly string[];
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** An array's keywords once its length is known (`uniqueItems: true` is Ajv's: undecided). */
export interface ArrayCheck {
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** A leaf's keywords, each optional; an empty check always holds. Ajv applies string keywords to strings only, number keywords to numbers only. */
export interface LeafCheck {
  /** `type` as Ajv checks it with strictNumbers (a number is finite; an integer has no fraction). */
  readonly type?: readonly TypeName[];
  readonly const?: { readonly value: Primitive };
  readonly enum?: readonly Primitive[];
  readonly string?: StringCheck;
  readonly number?: NumberCheck;
  /** A union of leaves: anyOf, one member that surely holds; oneOf, exactly one (then every member is decided). */
  readonly union?: { readonly anyOf: boolean; readonly members: ReadonlyArray<LeafCheck | null> };
}

/** minLength and maxLength count code points, as Ajv's ucs2length; a pattern is compiled with the "u" flag only, as Ajv compiles it. */
export interface StringCheck {
  readonly maxLength?: number;
  /** Only when above 0. */
  readonly minLength?: number;
  readonly pattern?: string;
}

export type NumberBound = "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum";

export interface NumberCheck {
  /** In the order minimum, maximum, exclusiveMinimum, exclusiveMaximum (draft-07: numbers). */
  readonly bounds: ReadonlyArray<readonly [NumberBound, number]>;
  /** An integer divisor, exact without Ajv's decimal check; any other divisor makes the leaf undecided. */
  readonly multipleOf?: number;
}

/** Keywords that change which values a node admits in ways a plan cannot follow: such a schema has no plan. */
const OPAQUE_KEYWORDS: ReadonlySet<string> = new Set([
  "$ref",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependencies",
  "propertyNames",
  "additionalItems",
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$defs",
  "definitions",
]);
const MAX_PLAN_DEPTH = 64;
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The plan of a schema, or undefined when its values' shape is not fixed by it (open objects, `any`, unions of
 * objects, references): those values take the runtime's general walk (runtime/pipeline/json-data.ts).
 */
export function canonicalPlan(schema: unknown): CanonicalPlan | undefined {
  return planOf(schema, null, 0);
}

function planOf(schema: unknown, parentKey: string | null, depth: number): CanonicalPlan | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || depth > MAX_PLAN_DEPTH)
    return undefined;
  const node = schema as Record<string, unknown>;
  for (const keyword of Object.keys(node)) if (OPAQUE_KEYWORDS.has(keyword)) return undefined;
  const union = node.anyOf ?? node.oneOf;
  if (union !== undefined) {
    if (!Array.isArray(union) || Object.hasOwn(node, "anyOf") === Object.hasOwn(node, "oneOf")) return undefined;
    const types = new Set<LeafType>();
    for (const member of union) {
      const plan = planOf(member, parentKey, depth + 1);
      if (plan?.kind !== "leaf") return undefined;
      for (const type of plan.types) types.add(type);
    }
    return leafPlan(node, types);
  }
  if (Object.hasOwn(node, "const")) return leafPlan(node, leafTypesOf([node.const]));
  if (Object.hasOwn(node, "enum")) return Array.isArray(node.enum) ? leafPlan(node, leafTypesOf(node.enum)) : undefined;
  const type = node.type;
  if (type === "object") return objectPlan(node, parentKey, depth);
  if (type === "array") {
    const items = planOf(node.items, null, depth + 1);
    return items === undefined ? undefined : { kind: "array", items, check: arrayCheck(node) };
  }
  const types = leafTypesOfType(type);
  return types === undefined ? undefined : { kind: "leaf", types, check: leafCheck(node).check };
}

function objectPlan(node: Record<string, unknown>, parentKey: string | null, depth: number): CanonicalPlan | undefined {
  if (node.additionalProperties !== false) return undefined;
  const properties = node.properties ?? {};
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return undefined;
  const out: Array<readonly [string, CanonicalPlan]> = [];
  for (const [key, child] of Object.entries(properties)) {
    // Keys the general walk refuses (prototype pollution) stay with it, and so does its message.
    if (key === "__proto__" || (key === "prototype" && parentKey === "constructor")) return undefined;
    // V8 orders array-index keys first whatever the insertion order, so the copy could not carry the canonical order.
    if (ARRAY_INDEX.test(key)) return undefined;
    const plan = planOf(child, key, depth + 1);
    if (plan === undefined) return undefined;
    out.push([key, plan]);
  }
  const sorted = out
    .map((_, index) => index)
    .sort((a, b) => (out[a]![0] < out[b]![0] ? -1 : out[a]![0] > out[b]![0] ? 1 : 0));
  return { kind: "object", properties: out, sorted, check: objectCheck(node, properties as Record<string, unknown>) };
}

/** A leaf of `types`, narrowed by the node's own `type` when it has one. */
function leafPlan(node: Record<string, unknown>, types: ReadonlySet<LeafType> | undefined): CanonicalPlan | undefined {
  if (types === undefined || types.size === 0) return undefined;
  const check = leafCheck(node).check;
  if (!Object.hasOwn(node, "type")) return { kind: "leaf", types, check };
  const declared = leafTypesOfType(node.type);
  if (declared === undefined) return undefined;
  const both = new Set([...types].filter((type) => declared.has(type)));
  return both.size === 0 ? undefined : { kind: "leaf", types: both, check };
}

function leafTypesOf(values: readonly unknown[]): Set<LeafType> | undefined {
  const types = new Set<LeafType>();
  for (const value of values) {
    if (value === null) types.add("null");
    else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      types.add(typeof value as LeafType);
    else return undefined;
  }
  return types;
}

function leafTypesOfType(type: unknown): Set<LeafType> | undefined {
  const names = Array.isArray(type) ? type : [type];
  const types = new Set<LeafType>();
  for (const name of names) {
    if (name === "string" || name === "number" || name === "boolean" || name === "null") types.add(name);
    else if (name === "integer") types.add("number");
    else return undefined;
  }
  return types.size === 0 ? undefined : types;
}

/** Keywords no validation reads (Ajv treats them as annotations; useDefaults is off, so `default` changes nothing). */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
]);

/** Keywords each kind of node may carry and still be decided; any other makes the node's check undecided. */
const DECIDED = {
  object: new Set(["type", "properties", "additionalProperties", "required", "minProperties", "maxProperties"]),
  array: new Set(["type", "items", "minItems", "maxItems", "uniqueItems"]),
  leaf: new Set([
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
  ]),
} as const;

function decidable(node: Readonly<Record<string, unknown>>, kind: keyof typeof DECIDED): boolean {
  return Object.keys(node).every((keyword) => DECIDED[kind].has(keyword) || ANNOTATIONS.has(keyword));
}

/** A count keyword's value as Ajv takes it (a non-negative integer), or undefined when absent; null when malformed. */
function count(node: Readonly<Record<string, unknown>>, keyword: string): number | undefined | null {
  if (!Object.hasOwn(node, keyword)) return undefined;
  const value = node[keyword];
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null;
}

function limit(node: Readonly<Record<string, unknown>>, keyword: string): number | undefined | null {
  if (!Object.hasOwn(node, keyword)) return undefined;
  const value = node[keyword];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function objectCheck(node: Readonly<Record<string, unknown>>, properties: Record<string, unknown>): ObjectCheck | null {
  if (!decidable(node, "object")) return null;
  let required: string[] = [];
  if (Object.hasOwn(node, "required")) {
    const listed = node.required;
    if (!Array.isArray(listed) || !listed.every((key) => typeof key === "string")) return null;
    required = [...new Set(listed as string[])];
    // A required key the closed object does not allow: no value has it and passes.
    if (!required.every((key) => Object.hasOwn(properties, key))) return null;
  }
  const min = count(node, "minProperties");
  const max = count(node, "maxProperties");
  if (min === null || max === null) return null;
  const check: { required: string[]; minProperties?: number; maxProperties?: number } = { required };
  if (min !== undefined) check.minProperties = min;
  if (max !== undefined) check.maxProperties = max;
  return check;
}

function arrayCheck(node: Readonly<Record<string, unknown>>): ArrayCheck | null {
  if (!decidable(node, "array")) return null;
  if (Object.hasOwn(node, "uniqueItems") && node.uniqueItems !== false) return null;
  const min = count(node, "minItems");
  const max = count(node, "maxItems");
  if (min === null || max === null) return null;
  const check: { minItems?: number; maxItems?: number } = {};
  if (min !== undefined) check.minItems = min;
  if (max !== undefined) check.maxItems = max;
  return check;
}

/** A leaf's check, and whether it holds exactly when Ajv accepts (else only when Ajv accepts: stricter). */
interface Planned {
  readonly check: LeafCheck | null;
  readonly exact: boolean;
}

const UNKNOWN: Planned = { check: null, exact: false };

function leafCheck(node: Readonly<Record<string, unknown>>): Planned {
  if (!decidable(node, "leaf")) return UNKNOWN;
  const check: { -readonly [K in keyof LeafCheck]: LeafCheck[K] } = {};
  if (Object.hasOwn(node, "type")) {
    const names = Array.isArray(node.type) ? node.type : [node.type];
    if (names.length === 0 || !names.every(isTypeName)) return UNKNOWN;
    check.type = names;
  }
  if (Object.hasOwn(node, "const")) {
    if (!isPrimitive(node.const)) return UNKNOWN;
    check.const = { value: node.const };
  }
  if (Object.hasOwn(node, "enum")) {
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) return UNKNOWN;
    check.enum = values;
  }
  const strings = stringCheck(node);
  const numbers = numberCheck(node);
  if (strings === null || numbers === null) return UNKNOWN;
  if (strings !== undefined) check.string = strings;
  if (numbers !== undefined) check.number = numbers;
  let exact = true;
  if (Object.hasOwn(node, "anyOf") || Object.hasOwn(node, "oneOf")) {
    const anyOf = Object.hasOwn(node, "anyOf");
    const members = anyOf ? node.anyOf : node.oneOf;
    if (!Array.isArray(members) || members.length === 0) return UNKNOWN;
    const planned = members.map((member) =>
      typeof member === "object" && member !== null && !Array.isArray(member)
        ? leafCheck(member as Record<string, unknown>)
        : UNKNOWN,
    );
    exact = planned.every((one) => one.exact);
    // oneOf: exactly one, which a member decided only in part would leave open. anyOf: an undecided member is taken
    // as failing (stricter, never looser).
    if (!anyOf && !exact) return UNKNOWN;
    check.union = { anyOf, members: planned.map((one) => one.check) };
  }
  return { check, exact };
}

/** minLength, maxLength and pattern; undefined when there is nothing to check, null when malformed. */
function stringCheck(node: Readonly<Record<string, unknown>>): StringCheck | undefined | null {
  const min = count(node, "minLength");
  const max = count(node, "maxLength");
  if (min === null || max === null) return null;
  if (Object.hasOwn(node, "pattern") && typeof node.pattern !== "string") return null;
  const check: { -readonly [K in keyof StringCheck]: StringCheck[K] } = {};
  if (max !== undefined) check.maxLength = max;
  if (min !== undefined && min > 0) check.minLength = min;
  if (Object.hasOwn(node, "pattern")) check.pattern = node.pattern as string;
  return Object.keys(check).length === 0 ? undefined : check;
}

/**
 * The four bounds, and multipleOf where it is exact without the decimal check (an integer divisor of an integer, the
 * decimal check's own first case; any other divisor is left to it: compiler/validators/decimal-multiple-of.ts).
 * undefined when there is nothing to check, null when malformed or undecided.
 */
function numberCheck(node: Readonly<Record<string, unknown>>): NumberCheck | undefined | null {
  const bounds: Array<readonly [NumberBound, number]> = [];
  for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const) {
    const bound = limit(node, keyword);
    if (bound === null) return null;
    if (bound !== undefined) bounds.push([keyword, bound]);
  }
  const divisor = limit(node, "multipleOf");
  if (divisor === null || (divisor !== undefined && (divisor <= 0 || !Number.isInteger(divisor)))) return null;
  if (bounds.length === 0 && divisor === undefined) return undefined;
  return divisor === undefined ? { bounds } : { bounds, multipleOf: divisor };
}

function isTypeName(name: unknown): name is TypeName {
  return name === "string" || name === "number" || name === "integer" || name === "boolean" || name === "null";
}

function isPrimitive(value: unknown): value is Primitive {
  return value === null || typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);
}
