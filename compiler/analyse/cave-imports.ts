import { ts } from "./typescript.js";
import { resolveName } from "./bindings.js";
import { CAVE_PACKAGE, isCaveFunction, type CaveFunction, type Module } from "./model.js";

/** The local names under which a module imports from "cave": tool/agent/artifact by alias, and namespaces. */
export interface CaveImports {
  readonly functions: ReadonlyMap<string, CaveFunction>;
  readonly namespaces: ReadonlySet<string>;
}

const cache = new WeakMap<ts.SourceFile, CaveImports>();

export function caveImports(module: Module): CaveImports {
  const cached = cache.get(module.sf);
  if (cached) return cached;
  const functions = new Map<string, CaveFunction>();
  const namespaces = new Set<string>();
  for (const statement of module.sf.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== CAVE_PACKAGE) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly || !clause.namedBindings) continue;
    if (ts.isNamespaceImport(clause.namedBindings)) namespaces.add(clause.namedBindings.name.text);
    else {
      for (const element of clause.namedBindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (!element.isTypeOnly && isCaveFunction(imported)) functions.set(element.name.text, imported);
      }
    }
  }
  const result = { functions, namespaces };
  cache.set(module.sf, result);
  return result;
}

export function importsCave(module: Module): boolean {
  return module.sf.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === CAVE_PACKAGE);
}

function isCaveBinding(module: Module, id: ts.Identifier, imported: string): boolean {
  const binding = resolveName(module, id, id.text);
  return binding.kind === "import" && binding.specifier === CAVE_PACKAGE && binding.imported === imported;
}

/** The property a `ns.name` / `ns["name"]` access reads, when it is written literally. */
export function accessedName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) return node.argumentExpression.text;
  return undefined;
}

/**
 * Which cave function a call calls, following the import (an alias counts, a local function or a
 * shadowing parameter named `tool` does not), or undefined.
 */
export function caveFunctionOf(module: Module, call: ts.CallExpression): CaveFunction | undefined {
  let callee: ts.Expression = call.expression;
  while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
  const imports = caveImports(module);
  if (ts.isIdentifier(callee)) {
    const fn = imports.functions.get(callee.text);
    return fn && isCaveBinding(module, callee, fn) ? fn : undefined;
  }
  if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
    const name = accessedName(callee);
    const base = callee.expression;
    if (name && isCaveFunction(name) && ts.isIdentifier(base) && imports.namespaces.has(base.text) && isCaveBinding(module, base, "*")) return name;
  }
  return undefined;
}

/** Whether an identifier names a cave import at this place (not shadowed). */
export function refersToCave(module: Module, id: ts.Identifier): "function" | "namespace" | undefined {
  const imports = caveImports(module);
  const fn = imports.functions.get(id.text);
  if (fn && isCaveBinding(module, id, fn)) return "function";
  if (imports.namespaces.has(id.text) && isCaveBinding(module, id, "*")) return "namespace";
  return undefined;
}
