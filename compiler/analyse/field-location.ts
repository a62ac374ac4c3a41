import { ts } from "./typescript.js";
import type { Definition } from "./definition.js";
import type { Module } from "./model.js";
import { propertyKey, unwrap } from "./static-value.js";

/** Splits a Violation field path: "sandboxProfile.env[1]" -> ["sandboxProfile", "env", 1]. */
function segments(field: string): Array<string | number> {
  return [...field.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[2]!));
}

function childOf(
  value: ts.Expression,
  segment: string | number,
): { node: ts.Node; value: ts.Expression | undefined } | undefined {
  const e = unwrap(value);
  if (typeof segment === "number" && ts.isArrayLiteralExpression(e)) {
    // Positions are only faithful up to the first spread.
    const before = e.elements.slice(0, segment + 1);
    if (before.length <= segment || before.some((el) => ts.isSpreadElement(el))) return undefined;
    const element = e.elements[segment]!;
    return { node: element, value: element };
  }
  if (typeof segment === "string" && ts.isObjectLiteralExpression(e)) {
    const found = [...e.properties].reverse().find((p) => {
      if (ts.isShorthandPropertyAssignment(p)) return p.name.text === segment;
      if (!ts.isPropertyAssignment(p)) return false;
      const key = propertyKey(p.name, () => ({ ok: true, value: undefined }));
      return key.ok && key.key === segment;
    });
    if (found && ts.isShorthandPropertyAssignment(found)) return { node: found, value: found.name };
    if (found && ts.isPropertyAssignment(found)) return { node: found, value: found.initializer };
  }
  return undefined;
}

/**
 * Where a finding about an option goes: the property (or the array element, the nested property) as
 * far as the path is written out in the source, or the call itself when the key is missing.
 */
export function fieldLocation(definition: Definition, field: string): { module: Module; node: ts.Node } {
  const [first, ...rest] = segments(field);
  const property = typeof first === "string" ? definition.options?.properties.get(first) : undefined;
  if (!property || !definition.options) return { module: definition.module, node: definition.call };
  let node: ts.Node = property.node;
  let value = property.value;
  for (const segment of rest) {
    const child = value && childOf(value, segment);
    if (!child) break;
    node = child.node;
    value = child.value;
  }
  return { module: definition.options.module, node };
}
