import { moduleBinding } from "./bindings.js";
import { moduleExports } from "./exports.js";
import { CAVE_FUNCTIONS, CAVE_PACKAGE, isCaveFunction, type CaveFunction, type Module } from "./model.js";

/** What a name stands for in cave's API: one of its definition functions, or a namespace that holds them. */
export type CaveRef =
  | { readonly kind: "function"; readonly fn: CaveFunction }
  /** `of` is the project module whose namespace it is, or null for the "cave" package itself. */
  | { readonly kind: "namespace"; readonly of: Module | null };

/**
 * Only a module that names "cave" or re-exports (`export {`, `export *`) can hand cave's functions on: any other module
 * is not parsed to find out. A local `export const t = tool` is an alias (CAVE3010), reported where it is written.
 */
const MAY_HAND_ON = /["']cave["']|\bexport\s*(?:\*|\{)/;

const cache = new WeakMap<Module, Map<string, CaveRef | null>>();

/**
 * What a project module exports under `name` of cave's API, following re-exports through project modules
 * (`export { tool } from "cave"`, `export * from "cave"`, `import { tool } from "cave"; export { tool as t }`, and
 * chains of them). Undefined when the export is anything else.
 */
export function caveExport(module: Module, name: string): CaveRef | undefined {
  let known = cache.get(module);
  if (!known) cache.set(module, (known = new Map()));
  if (known.has(name)) return known.get(name) ?? undefined;
  const found = exportOf(module, name, new Set());
  known.set(name, found ?? null);
  return found;
}

/** Whether a project module exports any of tool/agent/artifact (so its namespace can make definitions). */
export function exportsCave(module: Module): boolean {
  return CAVE_FUNCTIONS.some((fn) => caveExport(module, fn)?.kind === "function");
}

/** What `imported` of `specifier` is, seen from `module` ("*" for the namespace). */
export function caveRefOf(module: Module, specifier: string, imported: string): CaveRef | undefined {
  return refOf(module, specifier, imported, new Set());
}

/** A member of a cave namespace. */
export function memberOf(namespace: { readonly of: Module | null }, name: string): CaveRef | undefined {
  if (namespace.of === null) return isCaveFunction(name) ? { kind: "function", fn: name } : undefined;
  return caveExport(namespace.of, name);
}

function refOf(module: Module, specifier: string, imported: string, seen: Set<string>): CaveRef | undefined {
  if (specifier === CAVE_PACKAGE) {
    if (imported === "*") return { kind: "namespace", of: null };
    return isCaveFunction(imported) ? { kind: "function", fn: imported } : undefined;
  }
  const target = module.imported(specifier);
  if (!target) return undefined;
  if (imported === "*") return exportsCave(target) ? { kind: "namespace", of: target } : undefined;
  return exportOf(target, imported, seen);
}

function exportOf(module: Module, name: string, seen: Set<string>): CaveRef | undefined {
  if (!MAY_HAND_ON.test(module.sf.text)) return undefined;
  const key = `${module.file}\u0000${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const exports = moduleExports(module);
  const entry = exports.named.get(name);
  if (entry?.kind === "local") {
    const binding = moduleBinding(module, entry.local);
    return binding.kind === "import" ? refOf(module, binding.specifier, binding.imported, seen) : undefined;
  }
  if (entry?.kind === "reexport") return refOf(module, entry.specifier, entry.imported, seen);
  if (entry || name === "default") return undefined;
  for (const specifier of exports.stars) {
    const found = refOf(module, specifier, name, seen);
    if (found) return found;
  }
  return undefined;
}
