import { ts } from "./typescript.js";
import type { Module } from "./model.js";

/** What a name refers to, as far as static analysis cares. */
export type Binding =
  | {
      readonly kind: "const";
      readonly module: Module;
      readonly declaration: ts.VariableDeclaration;
      readonly initializer: ts.Expression;
    }
  | {
      readonly kind: "import";
      readonly module: Module;
      readonly specifier: string /** "default", "*" or the exported name. */;
      readonly imported: string;
    }
  | { readonly kind: "other" /** Why its value is not static, e.g. "declared with let". */; readonly what: string }
  | { readonly kind: "global" };

type Scope = ReadonlyMap<string, Binding>;

const scopes = new WeakMap<ts.Node, Scope>();

function modifiersOf(node: ts.Node): readonly ts.ModifierLike[] {
  return ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
}

export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return modifiersOf(node).some((m) => m.kind === kind);
}

/** Every identifier a binding name declares (`a`, or each name inside `{ a, b: [c] }`). */
export function boundIdentifiers(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  const out: ts.Identifier[] = [];
  for (const element of name.elements)
    if (!ts.isOmittedExpression(element)) out.push(...boundIdentifiers(element.name));
  return out;
}

function declarationKind(list: ts.VariableDeclarationList): string | "const" {
  const scoped = list.flags & ts.NodeFlags.BlockScoped;
  if (scoped === ts.NodeFlags.Const) return "const";
  if (scoped === ts.NodeFlags.Let) return "declared with let";
  if (scoped === 0) return "declared with var";
  return "declared with using";
}

function addVariables(
  module: Module,
  list: ts.VariableDeclarationList,
  ambient: boolean,
  into: Map<string, Binding>,
): void {
  const kind = declarationKind(list);
  for (const declaration of list.declarations) {
    if (!ts.isIdentifier(declaration.name)) {
      for (const id of boundIdentifiers(declaration.name))
        into.set(id.text, { kind: "other", what: "destructured from another value" });
      continue;
    }
    const name = declaration.name.text;
    if (kind !== "const") into.set(name, { kind: "other", what: kind });
    else if (ambient || !declaration.initializer) into.set(name, { kind: "other", what: "declared without a value" });
    else into.set(name, { kind: "const", module, declaration, initializer: declaration.initializer });
  }
}

function addImport(module: Module, statement: ts.ImportDeclaration, into: Map<string, Binding>): void {
  const clause = statement.importClause;
  if (!clause || clause.isTypeOnly || !ts.isStringLiteral(statement.moduleSpecifier)) return;
  const specifier = statement.moduleSpecifier.text;
  if (clause.name) into.set(clause.name.text, { kind: "import", module, specifier, imported: "default" });
  const bindings = clause.namedBindings;
  if (!bindings) return;
  if (ts.isNamespaceImport(bindings)) {
    into.set(bindings.name.text, { kind: "import", module, specifier, imported: "*" });
    return;
  }
  for (const element of bindings.elements) {
    if (element.isTypeOnly) continue;
    into.set(element.name.text, {
      kind: "import",
      module,
      specifier,
      imported: (element.propertyName ?? element.name).text,
    });
  }
}

/** The names a list of statements declares (a module, a block, a case block). */
function statementScope(module: Module, statements: readonly ts.Statement[]): Map<string, Binding> {
  const into = new Map<string, Binding>();
  for (const statement of statements) {
    if (ts.isVariableStatement(statement))
      addVariables(module, statement.declarationList, hasModifier(statement, ts.SyntaxKind.DeclareKeyword), into);
    else if (ts.isImportDeclaration(statement)) addImport(module, statement, into);
    else if (ts.isFunctionDeclaration(statement) && statement.name)
      into.set(statement.name.text, { kind: "other", what: "a function" });
    else if (ts.isClassDeclaration(statement) && statement.name)
      into.set(statement.name.text, { kind: "other", what: "a class" });
    else if (ts.isEnumDeclaration(statement)) into.set(statement.name.text, { kind: "other", what: "an enum" });
    else if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name))
      into.set(statement.name.text, { kind: "other", what: "a namespace" });
    else if (ts.isImportEqualsDeclaration(statement))
      into.set(statement.name.text, { kind: "other", what: "an import = require()" });
  }
  return into;
}

function namesScope(names: readonly ts.Identifier[], what: string): Map<string, Binding> {
  return new Map(names.map((id) => [id.text, { kind: "other", what } as Binding]));
}

/** The scope a node opens, if it opens one. */
function scopeOf(module: Module, node: ts.Node): Scope | undefined {
  const cached = scopes.get(node);
  if (cached) return cached;
  let scope: Map<string, Binding> | undefined;
  if (ts.isSourceFile(node) || ts.isBlock(node) || ts.isModuleBlock(node))
    scope = statementScope(module, node.statements);
  else if (ts.isCaseBlock(node))
    scope = statementScope(
      module,
      node.clauses.flatMap((clause) => [...clause.statements]),
    );
  else if (ts.isFunctionLike(node)) {
    scope = namesScope(
      node.parameters.flatMap((p) => boundIdentifiers(p.name)),
      "a parameter",
    );
    if ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name && !scope.has(node.name.text))
      scope.set(node.name.text, { kind: "other", what: "a function" });
  } else if (
    (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) &&
    node.initializer &&
    ts.isVariableDeclarationList(node.initializer)
  ) {
    scope = namesScope(
      node.initializer.declarations.flatMap((d) => boundIdentifiers(d.name)),
      "a loop variable",
    );
  } else if (ts.isCatchClause(node) && node.variableDeclaration) {
    scope = namesScope(boundIdentifiers(node.variableDeclaration.name), "a caught error");
  } else if (ts.isClassExpression(node) && node.name) {
    scope = namesScope([node.name], "a class");
  }
  if (scope) scopes.set(node, scope);
  return scope;
}

/** What `name` means at `from`, by the lexical scopes around it (innermost first), up to the module. */
export function resolveName(module: Module, from: ts.Node, name: string): Binding {
  for (let node: ts.Node | undefined = from.parent; node; node = node.parent) {
    const found = scopeOf(module, node)?.get(name);
    if (found) return found;
  }
  return { kind: "global" };
}

/** What a module-level name means. */
export function moduleBinding(module: Module, name: string): Binding {
  return scopeOf(module, module.sf)?.get(name) ?? { kind: "global" };
}
