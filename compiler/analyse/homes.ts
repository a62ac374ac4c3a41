import { error, warning } from "../diagnostics.js";
import type { ReExported } from "./barrels.js";
import { definitionSubject, type Definition } from "./definition.js";
import { moduleExports } from "./exports.js";
import { locate } from "./location.js";
import type { Module } from "./model.js";
import type { Registry } from "./registry.js";
import { DefinitionRef } from "./static-value.js";

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The tools a definition lists (an agent's tools, a composite's nestedTools), as far as they were read. */
function listed(definition: Definition, registry: Registry): Definition[] {
  const list = definition.values[definition.kind === "agent" ? "tools" : "nestedTools"];
  if (!Array.isArray(list)) return [];
  return list
    .filter((item): item is DefinitionRef => item instanceof DefinitionRef && item.kind === "tool")
    .map((ref) => registry.of(ref));
}

/**
 * Decides where the lock finds each tool and agent (its home), and reports every definition of the build's modules
 * that gets none, so that no definition is dropped without a word:
 * 1. its own `export const` (or `export { x as y }`) in a module of the build;
 * 2. else the first export, by module and name, of a module of the build that re-exports it (a barrel);
 * 3. else, for a module-level tool const of the build that is not exported, its own name, when a locked agent or
 *    composite lists it: the staged bundle exports it (decisions.md, "Tools defined without export").
 * A definition of the build with none of these is a CAVE3004 warning: not locked.
 */
export function assignHomes(
  defined: readonly Definition[],
  reExported: ReadonlyMap<Module, readonly ReExported[]>,
  registry: Registry,
): void {
  for (const definition of defined) {
    const placement = definition.placement;
    if (definition.module.inBuild && placement?.ok)
      definition.home = { module: definition.module, exportName: placement.exportName, synthetic: false };
  }
  for (const barrel of [...reExported.keys()].sort((a, b) => compare(a.file, b.file))) {
    for (const found of reExported.get(barrel)!) {
      const definition = registry.definition(found.module, found.call, found.kind);
      definition.home ??= { module: barrel, exportName: found.exportName, synthetic: false };
    }
  }
  // Locked definitions lend a home to the unexported tools they list, and those to theirs.
  const queue = registry.all().filter((d) => d.home !== null);
  const taken = new Set<Definition>();
  while (queue.length > 0) {
    for (const child of listed(queue.shift()!, registry)) {
      const placement = child.placement;
      if (
        child.home ||
        !child.module.inBuild ||
        placement?.ok !== false ||
        placement.code !== "CAVE3004" ||
        placement.local === null
      )
        continue;
      if (moduleExports(child.module).named.has(placement.local)) {
        taken.add(child);
        continue;
      }
      child.home = { module: child.module, exportName: placement.local, synthetic: true };
      queue.push(child);
    }
  }
  for (const definition of defined) {
    const placement = definition.placement;
    if (definition.home || !definition.module.inBuild || placement?.ok !== false || placement.code !== "CAVE3004")
      continue;
    const subject = definitionSubject(definition);
    const name = placement.local!;
    const at = locate(definition.module, definition.call);
    if (taken.has(definition)) {
      definition.diagnostics.push(
        error(
          "CAVE3004",
          `${subject} is not exported, and the module exports another value as ${name}, so the tool cannot be locked under its own name`,
          `Export it: write \`export const ${name} = tool({...})\` (renaming the other export), or add \`export { ${name} as someName }\`.`,
          at,
        ),
      );
      continue;
    }
    const what =
      definition.kind === "tool" ? "no locked agent or composite tool lists it" : "agents are locked by their export";
    definition.diagnostics.push(
      warning(
        "CAVE3004",
        `${subject} is defined without being exported and ${what}, so it is not locked and cannot be called`,
        `If it should be callable, export it (\`export const ${name} = ${definition.kind}({...})\` or \`export { ${name} }\`)${definition.kind === "tool" ? " or list it in an exported agent's tools" : ""}; otherwise delete it.`,
        at,
      ),
    );
  }
}
