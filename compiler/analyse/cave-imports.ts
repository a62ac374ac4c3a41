import { ts } from "./typescript.js";
import { resolveName } from "./bindings.js";
import { caveRefOf, memberOf } from "./cave-exports.js";
import type { CaveFunction, Module } from "./model.js";

/** One import that brings in a cave function or namespace, as written (so a shadowing name can be told apart). */
interface CaveImport {
  readonly specifier: string;
  readonly imported: string;
}

/**
 * The local names under which a module imports cave's tool/agent/artifact (by alias, and through project modules that
 * re-export them) and namespaces that hold them ("cave" itself, or a project module re-exporting them).
 */
export interface CaveImports {
  readonly functions: ReadonlyMap<string, CaveImport & { readonly fn: CaveFunction }>;
  readonly namespaces: ReadonlyMap<string, CaveImport & { readonly of: Module | null }>;
}

const cache = new WeakMap<Module, CaveImports>();

export function caveImports(module: Module): CaveImports {
  const cached = cache.get(module);
  if (cached) return cached;
  const functions = new Map<string, CaveImport & { fn: CaveFunction }>();
  const namespaces = new Map<string, CaveImport & { of: Module | null }>();
  for (const statement of module.sf.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly || !clause.namedBindings) continue;
    const specifier = statement.moduleSpecifier.text;
    const add = (local: string, imported: string) => {
      const ref = caveRefOf(module, specifier, imported);
      if (ref?.kind === "function") functions.set(local, { specifier, imported, fn: ref.fn });
      else if (ref?.kind === "namespace") namespaces.set(local, { specifier, imported, of: ref.of });
    };
    if (ts.isNamespaceImport(clause.namedBindings)) add(clause.namedBindings.name.text, "*");
    else
      for (const element of clause.namedBindings.elements)
        if (!element.isTypeOnly) add(element.name.text, (element.propertyName ?? element.name).text);
  }
  const result = { functions, namespaces };
  cache.set(module, result);
  return result;
}

/** Whether a module imports anything of cave's that can make definitions. */
export function importsCave(module: Module): boolean {
  const imports = caveImports(module);
  return imports.functions.size > 0 || imports.namespaces.size > 0;
}

/** Whether `id` means that import at this place (not a local of the same name). */
function isBinding(module: Module, id: ts.Identifier, from: CaveImport): boolean {
  const binding = resolveName(module, id, id.text);
  return (
    binding.kind === "import" &&
    binding.module === module &&
    binding.specifier === from.specifier &&
    binding.imported === from.imported
  );
}

/** The property a `ns.name` / `ns["name"]` access reads, when it is written literally. */
export function accessedName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression))
    return node.argumentExpression.text;
  return undefined;
}

/** The cave namespace an identifier names at this place, if it names one. */
export function namespaceAt(module: Module, id: ts.Identifier): { readonly of: Module | null } | undefined {
  const found = caveImports(module).namespaces.get(id.text);
  return found && isBinding(module, id, found) ? found : undefined;
}

/**
 * Which cave function a call calls, following the import (an alias counts, a re-export through project modules
 * counts, a local function or a shadowing parameter named `tool` does not), or undefined.
 */
export function caveFunctionOf(module: Module, call: ts.CallExpression): CaveFunction | undefined {
  let callee: ts.Expression = call.expression;
  while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
  if (ts.isIdentifier(callee)) {
    const found = caveImports(module).functions.get(callee.text);
    return found && isBinding(module, callee, found) ? found.fn : undefined;
  }
  if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
    const name = accessedName(callee);
    const base = callee.expression;
    const namespace = name !== undefined && ts.isIdentifier(base) ? namespaceAt(module, base) : undefined;
    const member = namespace && memberOf(namespace, name!);
    if (member?.kind === "function") return member.fn;
  }
  return undefined;
}

/** Whether an identifier names a cave import at this place (not shadowed). */
export function refersToCave(module: Module, id: ts.Identifier): "function" | "namespace" | undefined {
  const imports = caveImports(module);
  const fn = imports.functions.get(id.text);
  if (fn && isBinding(module, id, fn)) return "function";
  return namespaceAt(module, id) ? "namespace" : undefined;
}
