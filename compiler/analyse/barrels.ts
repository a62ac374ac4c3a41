import { ts } from "./typescript.js";
import { moduleBinding } from "./bindings.js";
import { caveFunctionOf } from "./cave-imports.js";
import { moduleExports } from "./exports.js";
import type { Module } from "./model.js";
import type { Evaluator } from "./static-value.js";
import { unwrap } from "./static-value.js";

/** A tool or agent another module defines, exported by this one (`export * from`, `export { x } from`, `import` then `export`). */
export interface ReExported {
  readonly exportName: string;
  readonly module: Module;
  readonly call: ts.CallExpression;
  readonly kind: "tool" | "agent";
}

/** Only a module with `export {` or `export *` can export what another module defines. */
export const MAY_REEXPORT = /\bexport\s*(?:\*|\{)/;

/** Every name a module exports, through `export *` chains too (never "default" from a star, as ES modules do). */
function exportNames(module: Module, seen: Set<Module>): Set<string> {
  const names = new Set<string>();
  if (seen.has(module)) return names;
  seen.add(module);
  const exports = moduleExports(module);
  for (const name of exports.named.keys()) names.add(name);
  for (const specifier of exports.stars) {
    const target = module.imported(specifier);
    if (!target) continue;
    for (const name of exportNames(target, seen)) if (name !== "default") names.add(name);
  }
  return names;
}

/** Whether an export is written in this module (a const of its own), which placement already covers. */
function isOwnConst(module: Module, name: string): boolean {
  const entry = moduleExports(module).named.get(name);
  return entry?.kind === "local" && moduleBinding(module, entry.local).kind === "const";
}

/** The tools and agents a module re-exports from other modules, sorted by export name. */
export function reExportedDefinitions(module: Module, evaluator: Evaluator): ReExported[] {
  if (!MAY_REEXPORT.test(module.sf.text)) return [];
  const out: ReExported[] = [];
  for (const exportName of [...exportNames(module, new Set())].sort()) {
    if (isOwnConst(module, exportName)) continue;
    const target = evaluator.exported(module, exportName);
    if (!target.ok || "namespace" in target || target.module === module) continue;
    const expression = unwrap(target.expression);
    if (!ts.isCallExpression(expression)) continue;
    const kind = caveFunctionOf(target.module, expression);
    if (kind === "tool" || kind === "agent") out.push({ exportName, module: target.module, call: expression, kind });
  }
  return out;
}
