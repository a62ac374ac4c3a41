import { describeThrown, error, sortDiagnostics, type Diagnostic } from "../diagnostics.js";
import type { AnalyseResult, StaticAgent, StaticTool } from "../types.js";
import { MENTIONS_CAVE } from "./candidates.js";
import { importsCave } from "./cave-imports.js";
import { checkDefinition } from "./check-definition.js";
import { hasErrors, type Definition } from "./definition.js";
import { findCaveUses, type CaveMisuse } from "./find-uses.js";
import { locate } from "./location.js";
import type { Module } from "./model.js";
import { checkUniqueNames } from "./project-rules.js";
import { Registry } from "./registry.js";
import { Sources } from "./sources.js";
import { Evaluator } from "./static-value.js";
import { toStaticAgent, toStaticTool } from "./to-static.js";
import { reExportedDefinitions, type ReExported } from "./barrels.js";
import { assignHomes } from "./homes.js";

/** Any import or re-export: a module without one cannot reach cave's functions through another module. */
const MAY_IMPORT = /\bimport\b|\bexport\b[^;]*\bfrom\b/;

function misuse(module: Module, found: CaveMisuse): Diagnostic {
  return error(
    "CAVE3010",
    `${found.what} is used other than in a direct call, so the definitions made through it cannot be found without running your code`,
    'Call tool(...), agent(...) and artifact(...) directly where the definition is made, e.g. `export const lookupOrder = tool({...})`; import them (from "cave" or a module that re-exports them), but do not alias them through variables or pass them around.',
    locate(module, found.node),
  );
}

function failure(file: string, thrown: unknown, root: string): Diagnostic {
  return error(
    "CAVE3001",
    `analysing ${file} failed unexpectedly: ${describeThrown(thrown, root)}`,
    "This is a bug in cave build's analysis, not in your code as far as it can tell; report it with the module that triggers it.",
    { file },
  );
}

function byName<T extends { readonly name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function unique(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Static analysis (syntax only, no type checker, no user code): finds the tool()/agent()/artifact()
 * calls imported from "cave", reads their lock-relevant fields, and applies every authoring rule.
 * `files` are POSIX paths relative to `root`, sorted. Never throws for a user's mistake.
 */
export function analyse(root: string, files: readonly string[]): AnalyseResult {
  const sources = new Sources(root, files);
  const registry = new Registry(new Evaluator());
  const diagnostics: Diagnostic[] = [];
  const defined: Definition[] = [];
  const reExported = new Map<Module, ReExported[]>();

  for (const file of files) {
    try {
      const text = sources.text(file);
      // A module that neither names "cave" nor imports or re-exports anything cannot define or hand on a definition.
      if (text === null || !(MENTIONS_CAVE.test(text) || MAY_IMPORT.test(text))) continue;
      const module = sources.module(file);
      if (!module || !sources.parses(module)) continue;
      if (importsCave(module)) {
        const uses = findCaveUses(module);
        diagnostics.push(...uses.misuses.map((found) => misuse(module, found)));
        for (const { kind, call } of uses.calls) {
          const definition = registry.definition(module, call, kind);
          if (kind !== "artifact") defined.push(definition);
        }
      }
      const found = reExportedDefinitions(module, registry.evaluator);
      if (found.length > 0) reExported.set(module, found);
    } catch (thrown) {
      diagnostics.push(failure(file, thrown, root));
    }
  }
  assignHomes(defined, reExported, registry);

  const all = registry.all();
  for (let i = 0; i < all.length; i++) {
    const definition = all[i]!;
    try {
      checkDefinition(definition, registry);
    } catch (thrown) {
      definition.incomplete = true;
      diagnostics.push(failure(definition.module.file, thrown, root));
    }
  }
  checkUniqueNames(all);

  const tools: StaticTool[] = [];
  const agents: StaticAgent[] = [];
  const modules = new Set<string>();
  const localExports = new Map<string, string[]>();
  for (const definition of all) {
    const home = definition.home;
    if (!home || definition.kind === "artifact" || hasErrors(definition)) continue;
    modules.add(home.module.file);
    if (home.synthetic)
      localExports.set(home.module.file, [...(localExports.get(home.module.file) ?? []), home.exportName]);
    if (definition.kind === "tool") tools.push(toStaticTool(definition, home, registry));
    else agents.push(toStaticAgent(definition, home, registry));
  }
  for (const definition of all) diagnostics.push(...definition.diagnostics);
  diagnostics.push(...sources.diagnostics);

  return {
    tools: tools.sort(byName),
    agents: agents.sort(byName),
    modules: [...modules].sort(),
    localExports: Object.fromEntries(
      [...localExports].sort(([a], [b]) => (a < b ? -1 : 1)).map(([module, names]) => [module, names.sort()]),
    ),
    diagnostics: sortDiagnostics(unique(diagnostics)),
  };
}
