import { HELPERS, type HelperName } from "./helpers.js";

/** The name of a set of helpers (sorted names joined by "+"): the key of its prelude. */
export function helperSetName(helpers: readonly HelperName[]): string {
  return [...helpers].sort().join("+");
}

/**
 * The source esbuild bundles into a prelude: an object of the helpers, each required exactly as Ajv's standalone
 * code would have required it. Built from the fixed HELPERS table only, never from schema data.
 */
export function preludeSource(helpers: readonly HelperName[]): string {
  const members = [...helpers].sort().map((name) => `  ${JSON.stringify(name)}: ${HELPERS[name]},`);
  return `module.exports = {\n${members.join("\n")}\n};\n`;
}
