/** Reading draft-07 output schemas: local $ref resolution and JSON Pointer segments, shared by the bound and shape passes. */

export type JsonSchema = Record<string, unknown> | boolean;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One JSON Pointer segment (RFC 6901). */
export function pointer(segment: string | number): string {
  return `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Resolves a local `$ref` ("#", "#/definitions/x", "#/$defs/x"...) against the root; undefined when it is not local or not found. */
export function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return typeof node === "boolean" || isObject(node) ? node : undefined;
}

/** The `type` keyword as a sorted list, or null when the schema does not say. */
export function typesOf(schema: Record<string, unknown>): string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return [...(type as string[])].sort();
  return null;
}

/** Follows `$ref` chains from `schema` (at `path`), refusing cycles. */
export function deref(
  root: JsonSchema,
  schema: JsonSchema,
  path: string,
): { schema: JsonSchema; path: string } | { error: string; path: string } {
  const seen = new Set<string>();
  let current = schema;
  let at = path;
  while (isObject(current) && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (seen.has(ref)) return { error: `recursive $ref ${JSON.stringify(ref)}`, path: at };
    seen.add(ref);
    const target = resolveRef(root, ref);
    if (target === undefined)
      return { error: `$ref ${JSON.stringify(ref)} is not a local reference`, path: `${at}/$ref` };
    current = target;
    at = ref === "#" ? "" : ref.slice(1);
  }
  return { schema: current, path: at };
}
