import { RuntimeError } from "./errors.js";

/**
 * The checks every option object of the runtime goes through (createRuntime, startRun, call,
 * createSandboxDispatcher): unknown keys and ill-typed values are OPTIONS_INVALID, naming the option.
 * `at` names the object in messages; nested option objects ("budget", "limits") prefix their keys with it.
 */
export function optionRecord(value: unknown, at: string, keys: readonly string[]): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) invalidOption(`${at} must be an object`);
  const prefix = at.endsWith("options") ? "" : `${at}.`;
  for (const key of Object.keys(value as object)) {
    if (!keys.includes(key)) invalidOption(`unknown option "${prefix}${key}" in ${at}; known keys: ${keys.join(", ")}`);
  }
  return value as Record<string, unknown>;
}

/** An integer option of at least `min`, or `fallback` when it is absent. */
export function integerOption(value: unknown, at: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && (value as number) >= min)) invalidOption(`${at} must be an integer of at least ${min} (got ${describeOption(value)})`);
  return value as number;
}

/** A value as an option message shows it: short, never the whole of a long string. */
export function describeOption(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return `a value of type ${typeof value}`;
}

export function invalidOption(message: string): never {
  throw new RuntimeError("OPTIONS_INVALID", message);
}
