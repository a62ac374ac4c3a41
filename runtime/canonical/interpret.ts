import type { CanonicalSerializer } from "../pipeline/json-data.js";
import type {
  ArrayPlan,
  CanonicalPlan,
  LeafCheck,
  LeafPlan,
  LeafType,
  NumberCheck,
  ObjectPlan,
  StringCheck,
} from "./plan.js";

/**
 * A schema's canonical walk interpreted from its plan (plan.ts): the same answers as the walk the build emits from
 * that plan (compiler/validators/canonical.ts), the same reads of the value in the same order, with nothing compiled
 * but the plan's patterns. A tool's first calls take this walk; V8 compiles the emitted one only for a tool that is
 * called often (docs/decisions.md, "Validators tier up"). Checked against the emitted walk, the general walk and Ajv
 * (test/runtime/canonical-differential.test.ts, canonical-validates.test.ts).
 * Throws a SyntaxError when a pattern of the plan does not compile with the "u" flag.
 */
export function interpretedSerializer(plan: CanonicalPlan): CanonicalSerializer {
  const walk = new PlanWalk(plan);
  return (value, maxBytes) => walk.run(value, maxBytes);
}

type WellFormed = string & { isWellFormed(): boolean };

/** What a node returns for a value it does not take. */
const FAIL: unknown = Object.freeze({});

/** Each pattern compiled once per process, as Ajv compiles it (`unicodeRegExp: true`): `test` on a RegExp without the g or y flag keeps no state. */
const PATTERNS = new Map<string, RegExp>();

class PlanWalk {
  readonly #plan: CanonicalPlan;
  /** A lower bound of the value's canonical bytes so far, and the cap. */
  #n = 0;
  #max = 0;
  #busy = false;
  /** Set by every node that returns a copy: its twin with keys in code-unit order, sharing no object with the copy. */
  #twin: unknown = null;
  /** Cleared by the first check that fails or is undecided: while set, the validator would accept the copy. */
  #valid = true;

  constructor(plan: CanonicalPlan) {
    this.#plan = plan;
    this.#prepare(plan);
  }

  run(value: unknown, maxBytes: number): ReturnType<CanonicalSerializer> {
    // A getter that starts another walk while this one runs: the general walk handles the inner one.
    if (this.#busy) return undefined;
    this.#busy = true;
    this.#n = 0;
    this.#max = maxBytes;
    this.#valid = true;
    try {
      const copy = this.#node(this.#plan, value);
      return copy === FAIL ? undefined : { value: copy, sorted: this.#twin, bytes: this.#n, valid: this.#valid };
    } catch {
      // A getter or proxy trap threw: the general walk reports it.
      return undefined;
    } finally {
      this.#busy = false;
      this.#twin = null;
    }
  }

  #node(plan: CanonicalPlan, v: unknown): unknown {
    if (plan.kind === "object") return this.#object(plan, v);
    if (plan.kind === "array") return this.#array(plan, v);
    if (!this.#leaf(plan, v)) return FAIL;
    this.#twin = v;
    return v;
  }

  #object(plan: ObjectPlan, v: unknown): unknown {
    if (typeof v !== "object" || v === null) return FAIL;
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return FAIL;
    // The value's own keys, read in its own order (as the general walk reads them), each into its slot.
    const keys = Object.keys(v);
    this.#n += 2 + keys.length;
    if (this.#n > this.#max) return FAIL;
    const properties = plan.properties;
    const copy: Record<string, unknown> = {};
    const slots: unknown[] = new Array(properties.length);
    for (let i = 0; i < keys.length; i++) {
      const slot = slotOf(properties, keys[i]!);
      if (slot < 0) return FAIL;
      const [key, child] = properties[slot]!;
      this.#n += key.length + 3;
      // A leaf is its own copy and twin (#node).
      const y = this.#node(child, (v as Record<string, unknown>)[key]);
      if (y === FAIL) return FAIL;
      copy[key] = y;
      slots[slot] = this.#twin;
    }
    const check = plan.check;
    if (
      check === null ||
      !check.required.every((key) => slots[slotOf(properties, key)] !== undefined) ||
      (check.minProperties !== undefined && keys.length < check.minProperties) ||
      (check.maxProperties !== undefined && keys.length > check.maxProperties)
    )
      this.#valid = false;
    // The twin: a fresh object with the keys inserted in code-unit order, the order of the canonical text.
    const twin: Record<string, unknown> = {};
    for (const slot of plan.sorted) if (slots[slot] !== undefined) twin[properties[slot]![0]] = slots[slot];
    this.#twin = twin;
    return copy;
  }

  #array(plan: ArrayPlan, v: unknown): unknown {
    if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return FAIL;
    const length = v.length;
    this.#n += 2 + length;
    if (this.#n > this.#max) return FAIL;
    const check = plan.check;
    if (
      check === null ||
      (check.minItems !== undefined && length < check.minItems) ||
      (check.maxItems !== undefined && length > check.maxItems)
    )
      this.#valid = false;
    const copy = new Array<unknown>(length);
    const twin = new Array<unknown>(length);
    const items = plan.items;
    for (let i = 0; i < length; i++) {
      const y = this.#node(items, v[i]);
      if (y === FAIL) return FAIL;
      copy[i] = y;
      twin[i] = this.#twin;
    }
    this.#twin = twin;
    return copy;
  }

  /** Takes `x` as a leaf of the plan's types, counting its bytes (false: the walk gives up), and applies its check. */
  #leaf(plan: LeafPlan, x: unknown): boolean {
    if (!this.#counted(plan.types, x)) return false;
    if (plan.check === null || !this.#holds(plan.check, x)) this.#valid = false;
    return true;
  }

  /** Whether `x` is a leaf of `types` the general walk takes as is, counting its bytes as the emitted walk counts them. */
  #counted(types: ReadonlySet<LeafType>, x: unknown): boolean {
    if (types.has("string") && typeof x === "string" && (x as WellFormed).isWellFormed())
      return (this.#n += x.length + 2) <= this.#max;
    // JSON.stringify of a finite number is ECMAScript's Number::toString, which is what RFC 8785 prescribes.
    if (types.has("number") && Number.isFinite(x)) this.#n += 1;
    else if (types.has("boolean") && typeof x === "boolean") this.#n += 5;
    else if (types.has("null") && x === null) this.#n += 4;
    else return false;
    return true;
  }

  #holds(check: LeafCheck, x: unknown): boolean {
    if (check.type !== undefined && !check.type.some((name) => isOfType(name, x))) return false;
    if (check.const !== undefined && x !== check.const.value) return false;
    if (check.enum !== undefined && !check.enum.some((value) => x === value)) return false;
    if (check.string !== undefined && typeof x === "string" && !this.#stringHolds(check.string, x)) return false;
    if (check.number !== undefined && typeof x === "number" && !numberHolds(check.number, x)) return false;
    const union = check.union;
    if (union === undefined) return true;
    if (union.anyOf) return union.members.some((member) => member !== null && this.#holds(member, x));
    let held = 0;
    for (const member of union.members) if (member !== null && this.#holds(member, x)) held++;
    return held === 1;
  }

  #stringHolds(check: StringCheck, x: string): boolean {
    // A string has at most as many code points as code units, and at least half as many: most strings are decided
    // by their length alone.
    const { maxLength: max, minLength: min } = check;
    if (max !== undefined && !(x.length <= max || codePoints(x) <= max)) return false;
    if (min !== undefined && !(x.length >= 2 * min || codePoints(x) >= min)) return false;
    return check.pattern === undefined || PATTERNS.get(check.pattern)!.test(x);
  }

  /** Compiles the plan's patterns (once per process each): a pattern that does not compile throws here. */
  #prepare(plan: CanonicalPlan): void {
    if (plan.kind === "object") for (const [, child] of plan.properties) this.#prepare(child);
    else if (plan.kind === "array") this.#prepare(plan.items);
    else if (plan.check !== null) preparePatterns(plan.check);
  }
}

function preparePatterns(check: LeafCheck): void {
  const pattern = check.string?.pattern;
  if (pattern !== undefined && !PATTERNS.has(pattern)) PATTERNS.set(pattern, new RegExp(pattern, "u"));
  for (const member of check.union?.members ?? []) if (member !== null) preparePatterns(member);
}

/** The index of `key` among an object plan's properties, or -1: a closed object has few, and a scan needs no index built. */
function slotOf(properties: ObjectPlan["properties"], key: string): number {
  for (let i = 0; i < properties.length; i++) if (properties[i]![0] === key) return i;
  return -1;
}

function isOfType(name: LeafType | "integer", x: unknown): boolean {
  if (name === "string") return typeof x === "string";
  if (name === "number") return Number.isFinite(x);
  if (name === "integer") return Number.isInteger(x);
  if (name === "boolean") return typeof x === "boolean";
  return x === null;
}

function numberHolds(check: NumberCheck, x: number): boolean {
  for (const [keyword, bound] of check.bounds) {
    if (
      keyword === "minimum"
        ? !(x >= bound)
        : keyword === "maximum"
          ? !(x <= bound)
          : keyword === "exclusiveMinimum"
            ? !(x > bound)
            : !(x < bound)
    )
      return false;
  }
  // Exact: a number whose shortest decimal form has a fraction is no multiple of an integer, decimally either.
  return check.multipleOf === undefined || (Number.isInteger(x) && x % check.multipleOf === 0);
}

/** Ajv's ucs2length: a high surrogate followed by a low one counts once. */
function codePoints(text: string): number {
  const length = text.length;
  let counted = 0;
  for (let i = 0; i < length; i++) {
    counted++;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return counted;
}
