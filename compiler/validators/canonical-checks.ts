import { _, and, nil, or, type Code, type Name } from "ajv/dist/compile/codegen/index.js";

/**
 * What the canonical walk (canonical.ts) checks of a schema's keywords, as conditions on a value it has already
 * read and type-checked for its shape. Each condition is sound: when it holds, Ajv with the options every validator
 * is compiled with (ajv-options.ts) accepts that keyword for that value, so a walk whose every condition held has a
 * value the validator accepts, and the runtime need not run Ajv. It may be stricter than Ajv (a keyword it cannot
 * decide exactly, such as `format`, is a condition that never holds): the value then goes to Ajv, which decides and
 * words the issues. The conditions read only the schema, never anything of the value's prototype chain.
 */

/** The names a condition needs from the walk's module: compiled once, when the walk's module is made. */
export interface CheckNames {
  /** A pattern compiled as Ajv compiles it (`unicodeRegExp: true`: the "u" flag, and no other). */
  pattern(source: string): Name;
  /** Ajv's ucs2length (minLength/maxLength count code points, a surrogate pair once). */
  codePoints(): Name;
}

/** A condition that never holds: the value goes to Ajv. */
export const UNDECIDED: Code = _`false`;

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

/** Keywords each kind of node may carry and still be decided here; any other makes the node UNDECIDED. */
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

/**
 * A closed object's keywords, once its keys were read (`keyCount`: how many; `slot(key)`: the name holding the
 * property's value, undefined when absent; only the schema's properties have one: any other key made the walk give
 * up already): `required`, `minProperties`, `maxProperties`. `additionalProperties: false` and `properties` are the
 * walk's shape itself. nil when there is nothing to check.
 */
export function objectCondition(
  node: Readonly<Record<string, unknown>>,
  keyCount: Code,
  slot: (key: string) => Name | undefined,
): Code {
  if (!decidable(node, "object")) return UNDECIDED;
  const parts: Code[] = [];
  if (Object.hasOwn(node, "required")) {
    const required = node.required;
    if (!Array.isArray(required) || !required.every((key) => typeof key === "string")) return UNDECIDED;
    for (const key of new Set(required as string[])) {
      const name = slot(key);
      // A required key the closed object does not allow: no value has it and passes.
      if (name === undefined) return UNDECIDED;
      parts.push(_`${name} !== undefined`);
    }
  }
  const min = count(node, "minProperties");
  const max = count(node, "maxProperties");
  if (min === null || max === null) return UNDECIDED;
  if (min !== undefined) parts.push(_`${keyCount} >= ${min}`);
  if (max !== undefined) parts.push(_`${keyCount} <= ${max}`);
  return all(parts);
}

/** An array's keywords once its length is known: `minItems`, `maxItems` (`uniqueItems: true` and `contains` are Ajv's). */
export function arrayCondition(node: Readonly<Record<string, unknown>>, length: Code): Code {
  if (!decidable(node, "array")) return UNDECIDED;
  if (Object.hasOwn(node, "uniqueItems") && node.uniqueItems !== false) return UNDECIDED;
  const min = count(node, "minItems");
  const max = count(node, "maxItems");
  if (min === null || max === null) return UNDECIDED;
  return all([
    ...(min === undefined ? [] : [_`${length} >= ${min}`]),
    ...(max === undefined ? [] : [_`${length} <= ${max}`]),
  ]);
}

/**
 * A leaf's keywords on `x`, a string, finite number, boolean or null (the walk checked that): its type, enum,
 * const, string and number keywords and, for a union of leaves, its members. Ajv applies the string keywords to
 * strings only and the number keywords to numbers only, and so does this.
 */
export function leafCondition(
  node: Readonly<Record<string, unknown>>,
  x: Code,
  names: CheckNames,
  known?: ReadonlySet<KnownType>,
): Code {
  return leaf(node, x, names, known).code;
}

/** The JSON types the walk has already checked a leaf to be one of (a number: finite), so no condition repeats it. */
export type KnownType = "string" | "number" | "boolean" | "null";

/** A condition, and whether it holds exactly when Ajv accepts (else it only holds when Ajv accepts: stricter). */
interface Condition {
  readonly code: Code;
  readonly exact: boolean;
}

const UNKNOWN: Condition = { code: UNDECIDED, exact: false };

function leaf(
  node: Readonly<Record<string, unknown>>,
  x: Code,
  names: CheckNames,
  known?: ReadonlySet<KnownType>,
): Condition {
  if (!decidable(node, "leaf")) return UNKNOWN;
  const parts: Code[] = [];
  if (Object.hasOwn(node, "type")) {
    const type = typeCondition(node.type, x);
    if (type === undefined) return UNKNOWN;
    if (known === undefined || !typeImplied(node.type, known)) parts.push(type);
  }
  if (Object.hasOwn(node, "const")) {
    const value = node.const;
    if (!isPrimitive(value)) return UNKNOWN;
    parts.push(_`${x} === ${value}`);
  }
  if (Object.hasOwn(node, "enum")) {
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) return UNKNOWN;
    parts.push(or(...values.map((value) => _`${x} === ${value}`)));
  }
  const strings = stringCondition(node, x, names);
  const numbers = numberCondition(node, x);
  if (strings === undefined || numbers === undefined) return UNKNOWN;
  parts.push(onlyFor("string", strings, x, known), onlyFor("number", numbers, x, known));
  let exact = true;
  if (Object.hasOwn(node, "anyOf") || Object.hasOwn(node, "oneOf")) {
    const union = unionCondition(node, x, names);
    if (union === undefined) return UNKNOWN;
    parts.push(union.code);
    exact = union.exact;
  }
  return { code: all(parts), exact };
}

function unionCondition(node: Readonly<Record<string, unknown>>, x: Code, names: CheckNames): Condition | undefined {
  const anyOf = Object.hasOwn(node, "anyOf");
  const members = anyOf ? node.anyOf : node.oneOf;
  if (!Array.isArray(members) || members.length === 0) return undefined;
  const conditions = members.map((member) =>
    typeof member === "object" && member !== null && !Array.isArray(member)
      ? leaf(member as Record<string, unknown>, x, names)
      : UNKNOWN,
  );
  const exact = conditions.every((condition) => condition.exact);
  // anyOf: one member that surely holds is enough (an undecided one is taken as failing: stricter, never looser).
  if (anyOf) return { code: or(...conditions.map(({ code }) => (code === nil ? _`true` : code))), exact };
  // oneOf: exactly one, which a member decided only in part would leave open.
  if (!exact) return undefined;
  const held = conditions.map(({ code }) => (code === nil ? _`1` : _`(${code} ? 1 : 0)`));
  return { code: _`${held.reduce((sum, term) => _`${sum} + ${term}`)} === 1`, exact };
}

/** The conjunction of `parts` (nil ones left out); nil (nothing to check) when there are none. */
function all(parts: readonly Code[]): Code {
  const checked = parts.filter((part) => part !== nil);
  return checked.length === 0 ? nil : and(...checked);
}

/** Whether the walk's own check of `known` types already says what `type` does (an integer is not implied by a number). */
function typeImplied(type: unknown, known: ReadonlySet<KnownType>): boolean {
  const declared = Array.isArray(type) ? type : [type];
  return [...known].every((name) => declared.includes(name));
}

/** `condition` on values of JSON type `type` only (as Ajv applies its keywords), without a test the walk made already. */
function onlyFor(type: "string" | "number", condition: Code, x: Code, known?: ReadonlySet<KnownType>): Code {
  if (condition === nil || (known !== undefined && !known.has(type))) return nil;
  if (known !== undefined && known.size === 1) return condition;
  return _`(typeof ${x} !== ${type} || ${condition})`;
}

/** `type` as Ajv checks it with strictNumbers (a number is finite; an integer has no fraction); undefined when unknown. */
function typeCondition(type: unknown, x: Code): Code | undefined {
  const names = Array.isArray(type) ? type : [type];
  if (names.length === 0) return undefined;
  const checks: Code[] = [];
  for (const name of names) {
    if (name === "string") checks.push(_`typeof ${x} === "string"`);
    else if (name === "number") checks.push(_`Number.isFinite(${x})`);
    else if (name === "integer") checks.push(_`Number.isInteger(${x})`);
    else if (name === "boolean") checks.push(_`typeof ${x} === "boolean"`);
    else if (name === "null") checks.push(_`${x} === null`);
    else return undefined;
  }
  return or(...checks);
}

/** minLength, maxLength (in code points, as Ajv's ucs2length counts) and pattern on a string `x`; undefined when malformed. */
function stringCondition(node: Readonly<Record<string, unknown>>, x: Code, names: CheckNames): Code | undefined {
  const min = count(node, "minLength");
  const max = count(node, "maxLength");
  if (min === null || max === null) return undefined;
  const parts: Code[] = [];
  // A string has at most as many code points as code units, and at least half as many: most strings are decided
  // by their length alone.
  if (max !== undefined) parts.push(_`(${x}.length <= ${max} || ${names.codePoints()}(${x}) <= ${max})`);
  if (min !== undefined && min > 0) parts.push(_`(${x}.length >= ${2 * min} || ${names.codePoints()}(${x}) >= ${min})`);
  if (Object.hasOwn(node, "pattern")) {
    if (typeof node.pattern !== "string") return undefined;
    parts.push(_`${names.pattern(node.pattern)}.test(${x})`);
  }
  return all(parts);
}

/**
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum (draft-07: numbers) on a finite number `x`, and multipleOf
 * where it is exact without the decimal check (an integer divisor of an integer, the decimal check's own first
 * case; any other value is left to it: decimal-multiple-of.ts). undefined when malformed.
 */
function numberCondition(node: Readonly<Record<string, unknown>>, x: Code): Code | undefined {
  const bounds = [
    ["minimum", ">="],
    ["maximum", "<="],
    ["exclusiveMinimum", ">"],
    ["exclusiveMaximum", "<"],
  ] as const;
  const parts: Code[] = [];
  for (const [keyword, operator] of bounds) {
    const bound = limit(node, keyword);
    if (bound === null) return undefined;
    if (bound === undefined) continue;
    if (operator === ">=") parts.push(_`${x} >= ${bound}`);
    else if (operator === "<=") parts.push(_`${x} <= ${bound}`);
    else if (operator === ">") parts.push(_`${x} > ${bound}`);
    else parts.push(_`${x} < ${bound}`);
  }
  const divisor = limit(node, "multipleOf");
  if (divisor === null || (divisor !== undefined && divisor <= 0)) return undefined;
  // Exact: a number whose shortest decimal form has a fraction is no multiple of an integer, decimally either.
  if (divisor !== undefined) {
    if (!Number.isInteger(divisor)) return undefined;
    parts.push(_`(Number.isInteger(${x}) && ${x} % ${divisor} === 0)`);
  }
  return all(parts);
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);
}
