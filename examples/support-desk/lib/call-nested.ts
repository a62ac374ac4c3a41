import type { ToolContext } from "cave";

/**
 * Calls a declared nested tool through the runtime (same schemas, budget, timeout and receipt as a
 * top-level call) and returns its validated result, or throws with the nested error so the composite fails
 * as a whole rather than continuing on half the facts.
 */
export async function callNested<T>(context: ToolContext, name: string, args: unknown): Promise<T> {
  const outcome = await context.call(name, args);
  if (!outcome.ok) throw new Error(`${name} failed (${outcome.error.code}): ${outcome.error.message}`);
  return outcome.content as T;
}
