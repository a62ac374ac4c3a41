import { ts } from "./typescript.js";
import { accessedName, caveFunctionOf, caveImports, refersToCave } from "./cave-imports.js";
import { CAVE_PACKAGE, isCaveFunction, type CaveFunction, type Module } from "./model.js";

export interface CaveCall {
  readonly kind: CaveFunction;
  readonly call: ts.CallExpression;
}

/** A use of cave's tool/agent/artifact that is not a direct call: definitions made through it would be invisible. */
export interface CaveMisuse {
  readonly node: ts.Node;
  readonly what: string;
}

export interface CaveUses {
  readonly calls: readonly CaveCall[];
  readonly misuses: readonly CaveMisuse[];
}

/** Positions where an identifier is a name being declared or a property key, not a reference to a binding. */
function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p)) return p.name !== id;
  if (ts.isBindingElement(p)) return p.initializer === id;
  if (ts.isTypeOfExpression(p)) return false;
  if (
    ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) ||
    ts.isPropertySignature(p) || ts.isMethodSignature(p) || ts.isEnumMember(p) || ts.isVariableDeclaration(p) || ts.isParameter(p) ||
    ts.isFunctionDeclaration(p) || ts.isFunctionExpression(p) || ts.isClassDeclaration(p) || ts.isClassExpression(p) ||
    ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p) || ts.isJsxAttribute(p)
  ) {
    return (p as { name?: ts.Node }).name !== id;
  }
  return !(ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isNamespaceExport(p));
}

function checkReference(module: Module, id: ts.Identifier, misuses: CaveMisuse[]): void {
  const refers = refersToCave(module, id);
  if (!refers) return;
  let callee: ts.Node = id;
  while (ts.isParenthesizedExpression(callee.parent)) callee = callee.parent;
  const p = id.parent;
  if (refers === "function") {
    if (!(ts.isCallExpression(callee.parent) && callee.parent.expression === callee)) misuses.push({ node: id, what: `${id.text} (imported from "cave")` });
    return;
  }
  const name = (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === id ? accessedName(p) : undefined;
  if (name === undefined) misuses.push({ node: id, what: `the namespace ${id.text} (imported from "cave")` });
  else if (isCaveFunction(name) && !(ts.isCallExpression(p.parent) && p.parent.expression === p)) misuses.push({ node: p, what: `${id.text}.${name}` });
}

/** `export { tool } from "cave"`, `export * from "cave"`, `export { tool as t }`: re-exports that would hide definitions from analysis. */
function checkExport(module: Module, statement: ts.ExportDeclaration, misuses: CaveMisuse[]): void {
  if (statement.isTypeOnly) return;
  const specifier = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
  const clause = statement.exportClause;
  if (specifier === CAVE_PACKAGE) {
    if (!clause || ts.isNamespaceExport(clause)) {
      misuses.push({ node: statement, what: `a re-export of "cave"` });
      return;
    }
    for (const element of clause.elements) {
      const name = (element.propertyName ?? element.name).text;
      if (!element.isTypeOnly && isCaveFunction(name)) misuses.push({ node: element, what: `a re-export of ${name} from "cave"` });
    }
    return;
  }
  if (specifier !== undefined || !clause || !ts.isNamedExports(clause)) return;
  for (const element of clause.elements) {
    const local = element.propertyName ?? element.name;
    if (!element.isTypeOnly && ts.isIdentifier(local) && refersToCave(module, local)) misuses.push({ node: element, what: `a re-export of ${local.text} (imported from "cave")` });
  }
}

/** Every call of cave's tool/agent/artifact in a module, and every other use of them. */
export function findCaveUses(module: Module): CaveUses {
  const imports = caveImports(module);
  const names = new Set([...imports.functions.keys(), ...imports.namespaces]);
  const calls: CaveCall[] = [];
  const misuses: CaveMisuse[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
    if (ts.isExportDeclaration(node)) {
      checkExport(module, node, misuses);
      return;
    }
    if (ts.isCallExpression(node)) {
      const kind = caveFunctionOf(module, node);
      if (kind) calls.push({ kind, call: node });
    } else if (ts.isIdentifier(node) && names.has(node.text) && isReference(node)) {
      checkReference(module, node, misuses);
    }
    ts.forEachChild(node, visit);
  };
  visit(module.sf);
  return { calls, misuses };
}
