import { ts } from "./typescript.js";
import { moduleExports } from "./exports.js";
import type { Module } from "./model.js";

/** Where a tool()/agent() call sits, as far as the runtime's import-by-export-name cares. */
export type Placement =
  | { readonly ok: true; readonly exportName: string }
  | {
      readonly ok: false;
      readonly code: "CAVE3003" | "CAVE3004" /** e.g. "inside a function". */;
      readonly where: string;
      readonly local: string | null;
    };

function outerExpression(call: ts.CallExpression): ts.Expression {
  let node: ts.Expression = call;
  for (
    let p = node.parent;
    ts.isParenthesizedExpression(p) ||
    ts.isAsExpression(p) ||
    ts.isSatisfiesExpression(p) ||
    ts.isTypeAssertionExpression(p) ||
    ts.isNonNullExpression(p);
    p = node.parent
  )
    node = p;
  return node;
}

function insideFunction(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent)
    if (ts.isFunctionLike(p) || ts.isClassStaticBlockDeclaration(p)) return true;
  return false;
}

/** A tool or agent must initialise its own exported module-level const: that export name is how the runtime imports it. */
export function placementOf(module: Module, call: ts.CallExpression): Placement {
  const node = outerExpression(call);
  const parent = node.parent;
  const fail = (code: "CAVE3003" | "CAVE3004", where: string, local: string | null = null): Placement => ({
    ok: false,
    code,
    where,
    local,
  });
  if (ts.isExportAssignment(parent)) return fail("CAVE3003", "as a default export");
  if (!ts.isVariableDeclaration(parent) || parent.initializer !== node) {
    if (insideFunction(node)) return fail("CAVE3003", "inside a function");
    if (ts.isArrayLiteralExpression(parent)) return fail("CAVE3003", "inline in an array");
    if (ts.isPropertyAssignment(parent) && parent.initializer === node)
      return fail("CAVE3003", `inline as the value of ${parent.name.getText(module.sf)}`);
    return fail("CAVE3003", "without being assigned to a const");
  }
  if (!ts.isIdentifier(parent.name)) return fail("CAVE3003", "in a destructuring declaration");
  const local = parent.name.text;
  const list = parent.parent;
  const scoped = list.flags & ts.NodeFlags.BlockScoped;
  if (scoped !== ts.NodeFlags.Const)
    return fail("CAVE3003", scoped === ts.NodeFlags.Let ? "with let" : scoped === 0 ? "with var" : "with using", local);
  if (list.parent.parent !== module.sf)
    return fail("CAVE3003", insideFunction(list) ? "inside a function" : "inside a block", local);
  const names = moduleExports(module).namesOf.get(local) ?? [];
  const named = names.filter((name) => name !== "default").sort();
  if (named.length === 0)
    return fail(
      names.length > 0 ? "CAVE3003" : "CAVE3004",
      names.length > 0 ? "as a default export only" : "without being exported",
      local,
    );
  // Exported under several names: the declared name if it is one of them, else the first in sort order.
  return { ok: true, exportName: named.includes(local) ? local : named[0]! };
}
