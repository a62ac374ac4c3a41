import { sortKeys } from "../emit/render.js";

/** JSON for --json output: sorted keys, two-space indent, trailing newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}
