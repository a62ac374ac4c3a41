import { ts } from "./typescript.js";
import { hasModifier } from "./bindings.js";
import type { Module } from "./model.js";

export type ExportEntry =
  | { readonly kind: "local"; readonly local: string }
  | {
      readonly kind: "reexport";
      readonly specifier: string /** "*" for `export * as name from`. */;
      readonly imported: string;
    }
  | { readonly kind: "expression"; readonly expression: ts.Expression };

export interface ModuleExports {
  readonly named: ReadonlyMap<string, ExportEntry>;
  /** Specifiers of `export * from "..."`, in source order. */
  readonly stars: readonly string[];
  /** For each module-level name, the names it is exported under. */
  readonly namesOf: ReadonlyMap<string, readonly string[]>;
}

const cache = new WeakMap<ts.SourceFile, ModuleExports>();

function exportName(name: ts.ModuleExportName): string {
  return name.text;
}

/** A module's exports, read from its statements (value exports only). */
export function moduleExports(module: Module): ModuleExports {
  const cached = cache.get(module.sf);
  if (cached) return cached;
  const named = new Map<string, ExportEntry>();
  const stars: string[] = [];
  const exportLocal = (exported: string, local: string) => named.set(exported, { kind: "local", local });
  for (const statement of module.sf.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      const specifier =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      const clause = statement.exportClause;
      if (!clause) {
        if (specifier !== undefined) stars.push(specifier);
      } else if (ts.isNamespaceExport(clause)) {
        if (specifier !== undefined) named.set(exportName(clause.name), { kind: "reexport", specifier, imported: "*" });
      } else {
        for (const element of clause.elements) {
          if (element.isTypeOnly) continue;
          const local = exportName(element.propertyName ?? element.name);
          if (specifier !== undefined)
            named.set(exportName(element.name), { kind: "reexport", specifier, imported: local });
          else exportLocal(exportName(element.name), local);
        }
      }
    } else if (ts.isExportAssignment(statement)) {
      if (!statement.isExportEquals) named.set("default", { kind: "expression", expression: statement.expression });
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      const isDefault = hasModifier(statement, ts.SyntaxKind.DefaultKeyword);
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) exportLocal(declaration.name.text, declaration.name.text);
        }
      } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
        exportLocal(isDefault ? "default" : statement.name.text, statement.name.text);
      } else if (ts.isEnumDeclaration(statement)) exportLocal(statement.name.text, statement.name.text);
    }
  }
  const namesOf = new Map<string, string[]>();
  for (const [exported, entry] of named) {
    if (entry.kind !== "local") continue;
    namesOf.set(entry.local, [...(namesOf.get(entry.local) ?? []), exported]);
  }
  for (const [exported, entry] of named) {
    // `export default someConst` exports that const under "default".
    if (entry.kind === "expression" && ts.isIdentifier(entry.expression))
      namesOf.set(entry.expression.text, [...(namesOf.get(entry.expression.text) ?? []), exported]);
  }
  const result: ModuleExports = { named, stars, namesOf };
  cache.set(module.sf, result);
  return result;
}
