import { ts } from "./typescript.js";
import { memberOf } from "./cave-exports.js";
import { accessedName, caveFunctionOf, caveImports, namespaceAt, refersToCave } from "./cave-imports.js";
import { CAVE_PACKAGE, type CaveFunction, type Module } from "./model.js";

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
    ts.isPropertyAssignment(p) ||
    ts.isPropertyDeclaration(p) ||
    ts.isMethodDeclaration(p) ||
    ts.isGetAccessor(p) ||
    ts.isSetAccessor(p) ||
    ts.isPropertySignature(p) ||
    ts.isMethodSignature(p) ||
    ts.isEnumMember(p) ||
    ts.isVariableDeclaration(p) ||
    ts.isParameter(p) ||
    ts.isFunctionDeclaration(p) ||
    ts.isFunctionExpression(p) ||
    ts.isClassDeclaration(p) ||
    ts.isClassExpression(p) ||
    ts.isLabeledStatement(p) ||
    ts.isBreakOrContinueStatement(p) ||
    ts.isJsxAttribute(p)
  ) {
    return (p as { name?: ts.Node }).name !== id;
  }
  return !(
    ts.isImportSpecifier(p) ||
    ts.isExportSpecifier(p) ||
    ts.isImportClause(p) ||
    ts.isNamespaceImport(p) ||
    ts.isNamespaceExport(p)
  );
}

function checkReference(module: Module, id: ts.Identifier, misuses: CaveMisuse[]): void {
  const refers = refersToCave(module, id);
  if (!refers) return;
  let callee: ts.Node = id;
  while (ts.isParenthesizedExpression(callee.parent)) callee = callee.parent;
  const p = id.parent;
  const from = describeImport(module, id);
  if (refers === "function") {
    if (!(ts.isCallExpression(callee.parent) && callee.parent.expression === callee))
      misuses.push({ node: id, what: `${id.text} (imported from ${from})` });
    return;
  }
  const name =
    (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === id
      ? accessedName(p)
      : undefined;
  if (name === undefined) {
    misuses.push({ node: id, what: `the namespace ${id.text} (imported from ${from})` });
    return;
  }
  const member = memberOf(namespaceAt(module, id)!, name);
  if (member?.kind === "namespace")
    misuses.push({ node: p, what: `${id.text}.${name} (a namespace holding cave's functions)` });
  else if (member?.kind === "function" && !(ts.isCallExpression(p.parent) && p.parent.expression === p))
    misuses.push({ node: p, what: `${id.text}.${name}` });
}

/** `"cave"`, or `"./lib/cave.js" (which re-exports "cave")`: where a cave import came from, for messages. */
function describeImport(module: Module, id: ts.Identifier): string {
  const imports = caveImports(module);
  const specifier = (imports.functions.get(id.text) ?? imports.namespaces.get(id.text))!.specifier;
  return specifier === CAVE_PACKAGE
    ? `"${CAVE_PACKAGE}"`
    : `${JSON.stringify(specifier)}, which re-exports "${CAVE_PACKAGE}"`;
}

/** Every call of cave's tool/agent/artifact in a module, and every other use of them. */
export function findCaveUses(module: Module): CaveUses {
  const imports = caveImports(module);
  const names = new Set([...imports.functions.keys(), ...imports.namespaces.keys()]);
  const calls: CaveCall[] = [];
  const misuses: CaveMisuse[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isTypeNode(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isImportDeclaration(node)
    )
      return;
    // Re-exports hand cave's functions on to other modules, which are followed (cave-exports.ts).
    if (ts.isExportDeclaration(node)) return;
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
