import type { CanonicalPlan } from "./plan.js";

/**
 * A plan as one line of JSON, as the build writes it into its validator file (compiler/validators/assemble.ts) so
 * that the runtime parses a schema's plan instead of working it out cold at the schema's first use (~1.4-2.2 ms for
 * the runtime benchmark's schema, ~0.05 ms to parse; docs/decisions.md, "The build writes each plan into its
 * validator file"). A leaf's `types` set is written as an array. U+2028 and U+2029, which JSON.stringify leaves raw in
 * a string but which end a line in JavaScript, are written as escapes: the line holds no line terminator at all.
 */
export function planText(plan: CanonicalPlan): string {
  return JSON.stringify(plan, (_, value: unknown) => (value instanceof Set ? [...value] : value)).replace(
    /[\u2028\u2029]/g,
    (separator) => (separator === "\u2028" ? "\\u2028" : "\\u2029"),
  );
}

/** The plan planText wrote. `types` is a field of leaf plans only; no other key of a plan has that name. */
export function planFromText(text: string): CanonicalPlan {
  return JSON.parse(text, (key, value: unknown) =>
    key === "types" && Array.isArray(value) ? new Set(value) : value,
  ) as CanonicalPlan;
}
