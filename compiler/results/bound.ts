import type { SizeBound } from "../../src/contract/lock.js";
import { own } from "../../src/contract/dictionary.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { deref, isObject, pointer, typesOf, type JsonSchema } from "./schema-nav.js";

/**
 * Largest UTF-8 size of a string's JSON form per code point: a control character is written as
 * \u00XX (6 bytes); anything else takes at most 4 bytes.
 */
const BYTES_PER_CODE_POINT = 6;
/** Longest JSON text of any finite JavaScript number ("-1.2345678901234567e-308", "-0.0000012345678901234567"). */
const NUMBER_BYTES = 25;

/**
 * Longest value of a string format, in characters, as its standard defines it. These are ASCII and
 * never escaped. date-time assumes at most nine fractional digits (nanoseconds), which RFC 3339
 * leaves open; email is RFC 5321's path limit. See docs/result-plans.md.
 */
const FORMAT_CHARS: Readonly<Record<string, number>> = {
  date: 10,
  time: 24,
  "date-time": 35,
  uuid: 36,
  email: 254,
  hostname: 253,
  ipv4: 15,
  ipv6: 45,
};

type Bytes = { readonly bytes: number } | { readonly path: string; readonly why: string };

/**
 * An upper bound of a result's size in tokens from its draft-07 output schema, or "unbounded" with the
 * JSON Pointer (into the schema) of the first part, in key order, that makes it so. The bound is on the
 * UTF-8 bytes of the result's canonical JSON, and tokens <= bytes for the pinned byte-level BPE.
 */
export function sizeBound(schema: Record<string, unknown> | null): SizeBound {
  if (schema === null) return { kind: "unbounded", path: "", why: "the tool has no output JSON Schema" };
  const result = new Bounder(schema).bytes(schema, "", 0);
  return "bytes" in result
    ? { kind: "bounded", tokens: result.bytes }
    : { kind: "unbounded", path: result.path, why: result.why };
}

const MAX_DEPTH = 64;

class Bounder {
  constructor(private readonly root: JsonSchema) {}

  bytes(input: JsonSchema, at: string, depth: number): Bytes {
    if (depth > MAX_DEPTH) return { path: at, why: "nested deeper than 64 levels" };
    const resolved = deref(this.root, input, at);
    if ("error" in resolved) return { path: resolved.path, why: resolved.error };
    const { schema, path } = resolved;
    if (schema === true) return { path, why: "any value is allowed (schema true)" };
    if (schema === false) return { bytes: 0 };
    if (Object.hasOwn(schema, "const")) return { bytes: jsonBytes(schema.const) };
    if (Array.isArray(schema.enum)) return { bytes: Math.max(0, ...schema.enum.map(jsonBytes)) };
    const combined = this.combinators(schema, path, depth);
    if (combined !== undefined) return combined;
    const types = typesOf(schema);
    if (types === null) return { path, why: "no type, const or enum: any value is allowed" };
    let max = 0;
    for (const type of types) {
      const one = this.ofType(type, schema, path, depth);
      if (!("bytes" in one)) return one;
      max = Math.max(max, one.bytes);
    }
    return { bytes: max };
  }

  /** allOf: the tightest bounded branch bounds the value; anyOf/oneOf: every branch must be bounded. */
  private combinators(schema: Record<string, unknown>, path: string, depth: number): Bytes | undefined {
    if (Array.isArray(schema.allOf)) {
      let best: number | undefined;
      let first: Bytes | undefined;
      schema.allOf.forEach((branch, i) => {
        const one = this.bytes(branch as JsonSchema, `${path}/allOf${pointer(i)}`, depth + 1);
        if ("bytes" in one) best = best === undefined ? one.bytes : Math.min(best, one.bytes);
        else first ??= one;
      });
      if (best !== undefined) return { bytes: best };
      if (!typesOf(schema) && first) return first;
    }
    for (const key of ["anyOf", "oneOf"] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      let max = 0;
      for (let i = 0; i < branches.length; i++) {
        const one = this.bytes(branches[i] as JsonSchema, `${path}/${key}${pointer(i)}`, depth + 1);
        if (!("bytes" in one)) return one;
        max = Math.max(max, one.bytes);
      }
      return { bytes: max };
    }
    return undefined;
  }

  private ofType(type: string, schema: Record<string, unknown>, path: string, depth: number): Bytes {
    switch (type) {
      case "null":
        return { bytes: 4 };
      case "boolean":
        return { bytes: 5 };
      case "number":
        return { bytes: NUMBER_BYTES };
      case "integer":
        return { bytes: integerBytes(schema) };
      case "string":
        return stringBytes(schema, path);
      case "array":
        return this.arrayBytes(schema, path, depth);
      case "object":
        return this.objectBytes(schema, path, depth);
      default:
        return { path: `${path}/type`, why: `unknown type ${JSON.stringify(type)}` };
    }
  }

  private arrayBytes(schema: Record<string, unknown>, path: string, depth: number): Bytes {
    const maxItems = nonNegative(schema.maxItems);
    if (Array.isArray(schema.items)) {
      // A tuple: its positions, then additionalItems for the rest.
      const tuple = schema.items as JsonSchema[];
      const sizes: number[] = [];
      for (let i = 0; i < tuple.length; i++) {
        if (maxItems !== undefined && i >= maxItems) break;
        const one = this.bytes(tuple[i]!, `${path}/items${pointer(i)}`, depth + 1);
        if (!("bytes" in one)) return one;
        sizes.push(one.bytes);
      }
      const closed = schema.additionalItems === false || (maxItems !== undefined && maxItems <= tuple.length);
      if (closed) return { bytes: listBytes(sizes) };
      if (maxItems === undefined)
        return { path: `${path}/additionalItems`, why: "a tuple open to more items, without maxItems" };
      const rest = this.bytes((schema.additionalItems ?? true) as JsonSchema, `${path}/additionalItems`, depth + 1);
      if (!("bytes" in rest)) return rest;
      return { bytes: listBytes([...sizes, ...Array<number>(maxItems - sizes.length).fill(rest.bytes)]) };
    }
    if (maxItems === undefined) return { path, why: "an array without maxItems" };
    if (maxItems === 0) return { bytes: 2 };
    const item = this.bytes((schema.items ?? true) as JsonSchema, `${path}/items`, depth + 1);
    if (!("bytes" in item)) return item;
    return { bytes: 2 + maxItems * item.bytes + (maxItems - 1) };
  }

  private objectBytes(schema: Record<string, unknown>, path: string, depth: number): Bytes {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const members: number[] = [];
    for (const key of Object.keys(properties).sort()) {
      const value = this.bytes(properties[key] as JsonSchema, `${path}/properties${pointer(key)}`, depth + 1);
      if (!("bytes" in value)) return value;
      members.push(jsonBytes(key) + 1 + value.bytes);
    }
    if (isObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0) {
      return { path: `${path}/patternProperties`, why: "pattern properties allow any number of keys" };
    }
    const additional = schema.additionalProperties;
    if (additional === false) return { bytes: listBytes(members) };
    const maxProperties = nonNegative(schema.maxProperties);
    if (maxProperties === undefined)
      return {
        path: `${path}/additionalProperties`,
        why: "an open object (additionalProperties is not false) without maxProperties",
      };
    const name = isObject(schema.propertyNames) ? nonNegative(schema.propertyNames.maxLength) : undefined;
    if (name === undefined)
      return { path: `${path}/propertyNames`, why: "an open object whose property names have no maxLength" };
    const value = this.bytes((additional ?? true) as JsonSchema, `${path}/additionalProperties`, depth + 1);
    if (!("bytes" in value)) return value;
    const extra = 2 + name * BYTES_PER_CODE_POINT + 1 + value.bytes;
    // Up to maxProperties members in all: the declared ones or extra ones, whichever is larger.
    const sizes = [...members, ...Array<number>(maxProperties).fill(extra)]
      .sort((a, b) => b - a)
      .slice(0, maxProperties);
    return { bytes: listBytes(sizes) };
  }
}

function stringBytes(schema: Record<string, unknown>, path: string): Bytes {
  const maxLength = nonNegative(schema.maxLength);
  const byLength = maxLength === undefined ? undefined : 2 + maxLength * BYTES_PER_CODE_POINT;
  const formatChars = typeof schema.format === "string" ? own(FORMAT_CHARS, schema.format) : undefined;
  const byFormat = formatChars === undefined ? undefined : 2 + formatChars;
  const bound = byLength === undefined ? byFormat : byFormat === undefined ? byLength : Math.min(byLength, byFormat);
  if (bound === undefined)
    return {
      path,
      why:
        typeof schema.format === "string"
          ? `a string of format ${JSON.stringify(schema.format)} (no known length) without maxLength`
          : "a string without maxLength",
    };
  return { bytes: bound };
}

function integerBytes(schema: Record<string, unknown>): number {
  const low = finite(schema.minimum) ?? finite(schema.exclusiveMinimum);
  const high = finite(schema.maximum) ?? finite(schema.exclusiveMaximum);
  // From 1e21 on, JavaScript writes integers in exponent form, so digit counts stop being monotonic.
  if (low === undefined || high === undefined || Math.abs(low) >= 1e21 || Math.abs(high) >= 1e21) return NUMBER_BYTES;
  const widest = Math.max(String(Math.ceil(low)).length, String(Math.floor(high)).length);
  return Math.min(NUMBER_BYTES, widest);
}

/** `[a,b,c]` or `{a,b,c}`: two brackets and a comma between members. */
function listBytes(sizes: readonly number[]): number {
  return 2 + sizes.reduce((sum, n) => sum + n, 0) + Math.max(0, sizes.length - 1);
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(canonicalJson(value), "utf8");
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
