import { DEFAULT_TIMEOUT_MS } from "./names.js";
import { unknownKeyHint } from "./suggest.js";

/**
 * One reader for every option object: the SDK's definitions, `build()`, `run()`, `evaluate()`, cave.config.json
 * and the runtime's options all check "an object, only known keys, each value of its kind" here, as esbuild's
 * `getFlag`/`checkForInvalidFlags` do. Problems come back as data; each layer renders them into its own error
 * type (a Violation, a Diagnostic, a RuntimeError) with the words below.
 */

/**
 * What an option's value must be: `check` answers undefined when the value passes, else the words that say what it
 * must be ("must be a boolean"), as esbuild's mustBe checkers do.
 */
export interface Rule {
  readonly check: (value: unknown) => string | undefined;
  /** What to do instead, where a layer shows hints (the compiler's diagnostics). */
  readonly hint?: string;
}

/** The known keys of an option object, each with its rule, or null where another check owns the value. */
export type Rules = Readonly<Record<string, Rule | null>>;

export type OptionProblem =
  | { readonly kind: "not-object" }
  | { readonly kind: "unknown"; readonly key: string; readonly hint: string }
  | {
      readonly kind: "invalid";
      readonly key: string;
      readonly value: unknown;
      readonly mustBe: string;
      readonly hint: string | undefined;
    };

const NO_PROBLEMS: readonly OptionProblem[] = Object.freeze([]);

/**
 * Checks `value` against `rules`: unknown keys first (with a did-you-mean hint), in the object's own key order,
 * then each present value against its rule, in the rules' order. `rules` may be only the known keys, when other
 * checks own every value. `prefix` names a nested object's keys ("limits.").
 */
export function readOptions(value: unknown, rules: Rules | readonly string[], prefix = ""): readonly OptionProblem[] {
  if (!isOptionObject(value)) return [{ kind: "not-object" }];
  const known = isKeyList(rules) ? rules : undefined;
  let problems: OptionProblem[] | undefined;
  for (const key of Object.keys(value)) {
    if (known === undefined ? Object.hasOwn(rules, key) : known.includes(key)) continue;
    (problems ??= []).push({
      kind: "unknown",
      key: prefix + key,
      hint: unknownKeyHint(key, known ?? Object.keys(rules)),
    });
  }
  if (known === undefined) {
    for (const key in rules) {
      const rule = (rules as Rules)[key];
      const given = value[key];
      if (rule === null || rule === undefined || given === undefined) continue;
      const mustBe = rule.check(given);
      if (mustBe !== undefined)
        (problems ??= []).push({ kind: "invalid", key: prefix + key, value: given, mustBe, hint: rule.hint });
    }
  }
  return problems ?? NO_PROBLEMS;
}

function isKeyList(rules: Rules | readonly string[]): rules is readonly string[] {
  return Array.isArray(rules);
}

/** An object that can hold options: not null, not an array. */
export function isOptionObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A rule from a test and the words for what passes it ("a boolean"). */
export function rule(test: (value: unknown) => boolean, words: string, hint?: string): Rule {
  const mustBe = `must be ${words}`;
  return hint === undefined
    ? { check: (value) => (test(value) ? undefined : mustBe) }
    : { check: (value) => (test(value) ? undefined : mustBe), hint };
}

/** The rules option readers share; a reader with its own words writes its own with `rule()`. */
export const mustBe = {
  boolean: rule((value) => typeof value === "boolean", "a boolean"),
  function: rule((value) => typeof value === "function", "a function"),
  nonEmptyString: rule((value) => typeof value === "string" && value !== "", "a non-empty string"),
  pathString: rule((value) => typeof value === "string", "a path string"),
  nonEmptyPathString: rule((value) => typeof value === "string" && value !== "", "a non-empty path string"),
  positiveInteger: rule((value) => Number.isSafeInteger(value) && (value as number) > 0, "a positive integer"),
  integerAtLeast: (min: number): Rule =>
    rule((value) => Number.isSafeInteger(value) && (value as number) >= min, `an integer of at least ${min}`),
  oneOf: (values: readonly unknown[]): Rule =>
    rule((value) => values.includes(value), values.map((v) => JSON.stringify(v)).join(" or ")),
  /** The same rule with a hint. */
  hinted: (base: Rule, hint: string): Rule => ({ check: base.check, hint }),
};

/** A value as an option message shows it: short, never the whole of a long string. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  return `a value of type ${typeof value}`;
}

/** What tool() fills in for an option left out; the compiler's static reading fills in the same. */
export const TOOL_DEFAULTS = Object.freeze({
  timeout: DEFAULT_TIMEOUT_MS,
  result: "auto",
  allowRepeat: false,
  sandbox: "required",
  addons: false,
} as const);
