import type * as ResultEngine from "../results/engine.js";

/**
 * `import()` of a module by its URL, kept in an ES module of its own: the runtime's bundle runs as a script compiled
 * with a V8 code cache (scripts/bundle-runtime.mjs, runtime/loading/script-bundle.ts), and a script has no module
 * loader to call `import()` on, so the bundle keeps this module outside it and calls it here.
 */
export function importModule(url: string): Promise<unknown> {
  return import(url);
}

/**
 * The result-plan engine, loaded on a runtime's first result plan. It stays an ES module outside the bundle: it loads
 * the tokenizer and result transforms with import(), which a script cannot make.
 */
export function importResultEngine(): Promise<typeof ResultEngine> {
  return import("../results/engine.js");
}
