import { canonicalJson } from "../../src/contract/hash.js";

/**
 * canonicalJson(value) for a value JSON.parse made from `source`: the same RFC 8785 bytes, found
 * cheaply for a lock. A parsed value is plain data by construction (plain objects and arrays,
 * strings, numbers, booleans, null), so of everything canonicalJson's fast path checks only three
 * things can make JSON.stringify differ from the canonical form:
 * - object keys out of code-unit order (RFC 8785 sorts them; JSON.stringify keeps property order),
 *   or containers nested 256 deep;
 * - a non-finite number (JSON text like 1e400 parses to Infinity);
 * - a lone surrogate in a string or key, which only a `\u` escape (or a malformed source string)
 *   can put there, so a well-formed source without `\u` needs no look at any string;
 * and, outside the value, a toJSON method on Object.prototype or Array.prototype.
 * Anything else takes canonicalJson's general path, so the result is always exactly canonicalJson(value).
 */
export function parsedCanonicalJson(value: unknown, source: string): string {
  const plain = typeof (Object.prototype as { toJSON?: unknown }).toJSON !== "function" && typeof (Array.prototype as { toJSON?: unknown }).toJSON !== "function";
  if (plain && !source.includes("\\u") && (source as string & { isWellFormed(): boolean }).isWellFormed() && inCanonicalOrder(value, 0)) return JSON.stringify(value);
  return canonicalJson(value);
}

/** Keys in strictly increasing code-unit order in every object, finite numbers, nesting under 256. */
function inCanonicalOrder(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "number" || Number.isFinite(value);
  if (depth >= 256) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i], depth + 1)) return false;
    return true;
  }
  // Keys and values as two native arrays: no per-key property lookup on the many shapes a lock has.
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) if (!(keys[i - 1]! < keys[i]!)) return false;
  const values = Object.values(value);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === "object" ? v !== null && !inCanonicalOrder(v, depth + 1) : typeof v === "number" && !Number.isFinite(v)) return false;
  }
  return true;
}
