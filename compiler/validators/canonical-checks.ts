import { _, and, nil, or, type Code, type Name } from "ajv/dist/compile/codegen/index.js";
import type {
  ArrayCheck,
  LeafCheck,
  LeafType,
  NumberCheck,
  ObjectCheck,
  StringCheck,
  TypeName,
} from "../../runtime/canonical/plan.js";

/**
 * A canonical plan's checks (runtime/canonical/plan.ts, which decides what is checked and why it is sound) as
 * conditions on a value the walk has already read and type-checked for its shape. The runtime interprets the same
 * checks for a tool's first calls (runtime/canonical/interpret.ts).
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

/** A closed object's check once its keys were read (`keyCount`: how many; `slot(key)`: the name holding the property's value, undefined when absent). */
export function objectCondition(
  check: ObjectCheck | null,
  keyCount: Code,
  slot: (key: string) => Name | undefined,
): Code {
  if (check === null) return UNDECIDED;
  const parts: Code[] = check.required.map((key) => _`${slot(key)!} !== undefined`);
  if (check.minProperties !== undefined) parts.push(_`${keyCount} >= ${check.minProperties}`);
  if (check.maxProperties !== undefined) parts.push(_`${keyCount} <= ${check.maxProperties}`);
  return all(parts);
}

/** An array's check once its length is known. */
export function arrayCondition(check: ArrayCheck | null, length: Code): Code {
  if (check === null) return UNDECIDED;
  return all([
    ...(check.minItems === undefined ? [] : [_`${length} >= ${check.minItems}`]),
    ...(check.maxItems === undefined ? [] : [_`${length} <= ${check.maxItems}`]),
  ]);
}

/** A leaf's check on `x`, a value the walk already found to be one of `known` (so no condition repeats that test). */
export function leafCondition(
  check: LeafCheck | null,
  x: Code,
  names: CheckNames,
  known?: ReadonlySet<LeafType>,
): Code {
  if (check === null) return UNDECIDED;
  const parts: Code[] = [];
  if (check.type !== undefined && (known === undefined || !typeImplied(check.type, known)))
    parts.push(typeCondition(check.type, x));
  if (check.const !== undefined) parts.push(_`${x} === ${check.const.value}`);
  if (check.enum !== undefined) parts.push(or(...check.enum.map((value) => _`${x} === ${value}`)));
  parts.push(
    onlyFor("string", check.string === undefined ? nil : stringCondition(check.string, x, names), x, known),
    onlyFor("number", check.number === undefined ? nil : numberCondition(check.number, x), x, known),
  );
  const union = check.union;
  if (union !== undefined) {
    const members = union.members.map((member) => (member === null ? UNDECIDED : leafCondition(member, x, names)));
    if (union.anyOf) parts.push(or(...members.map((code) => (code === nil ? _`true` : code))));
    else {
      const held = members.map((code) => (code === nil ? _`1` : _`(${code} ? 1 : 0)`));
      parts.push(_`${held.reduce((sum, term) => _`${sum} + ${term}`)} === 1`);
    }
  }
  return all(parts);
}

/** The conjunction of `parts` (nil ones left out); nil (nothing to check) when there are none. */
function all(parts: readonly Code[]): Code {
  const checked = parts.filter((part) => part !== nil);
  return checked.length === 0 ? nil : and(...checked);
}

/** Whether the walk's own check of `known` types already says what `type` does (an integer is not implied by a number). */
function typeImplied(type: readonly TypeName[], known: ReadonlySet<LeafType>): boolean {
  return [...known].every((name) => type.includes(name));
}

/** `condition` on values of JSON type `type` only (as Ajv applies its keywords), without a test the walk made already. */
function onlyFor(type: "string" | "number", condition: Code, x: Code, known?: ReadonlySet<LeafType>): Code {
  if (condition === nil || (known !== undefined && !known.has(type))) return nil;
  if (known !== undefined && known.size === 1) return condition;
  return _`(typeof ${x} !== ${type} || ${condition})`;
}

function typeCondition(type: readonly TypeName[], x: Code): Code {
  return or(
    ...type.map((name) => {
      if (name === "string") return _`typeof ${x} === "string"`;
      if (name === "number") return _`Number.isFinite(${x})`;
      if (name === "integer") return _`Number.isInteger(${x})`;
      if (name === "boolean") return _`typeof ${x} === "boolean"`;
      return _`${x} === null`;
    }),
  );
}

function stringCondition(check: StringCheck, x: Code, names: CheckNames): Code {
  const parts: Code[] = [];
  // A string has at most as many code points as code units, and at least half as many: most strings are decided
  // by their length alone.
  const { maxLength: max, minLength: min } = check;
  if (max !== undefined) parts.push(_`(${x}.length <= ${max} || ${names.codePoints()}(${x}) <= ${max})`);
  if (min !== undefined) parts.push(_`(${x}.length >= ${2 * min} || ${names.codePoints()}(${x}) >= ${min})`);
  if (check.pattern !== undefined) parts.push(_`${names.pattern(check.pattern)}.test(${x})`);
  return all(parts);
}

function numberCondition(check: NumberCheck, x: Code): Code {
  const parts: Code[] = check.bounds.map(([keyword, bound]) => {
    if (keyword === "minimum") return _`${x} >= ${bound}`;
    if (keyword === "maximum") return _`${x} <= ${bound}`;
    if (keyword === "exclusiveMinimum") return _`${x} > ${bound}`;
    return _`${x} < ${bound}`;
  });
  // Exact: a number whose shortest decimal form has a fraction is no multiple of an integer, decimally either.
  if (check.multipleOf !== undefined) parts.push(_`(Number.isInteger(${x}) && ${x} % ${check.multipleOf} === 0)`);
  return all(parts);
}
