import { createHash, hash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * Objects and arrays nested deeper than this have no canonical form here: canonicalisation (like every
 * JSON walker Cave runs) recurses, and a value a few thousand levels deep would overflow the stack with
 * a RangeError that names nothing. The runtime refuses such data at the call boundary with a typed
 * outcome (runtime/pipeline/json-data.ts); this is the same limit for every other caller.
 */
export const MAX_JSON_DEPTH = 256;

/** Thrown by canonicalJson for a value nested deeper than MAX_JSON_DEPTH (or one that contains itself). */
export class JsonTooDeepError extends TypeError {
  constructor() {
    super(
      `value is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (or contains itself), which has no canonical JSON form here`,
    );
    this.name = "JsonTooDeepError";
  }
}

/** RFC 8785 (JCS) canonical JSON: the one serialisation every hash in Cave is computed over. */
export function canonicalJson(value: unknown): string {
  // Same bytes either way; the native path is ~25x faster on a large lock, whose keys are already sorted.
  if (stringifiesCanonically(value, 0)) return JSON.stringify(value);
  checkDepth(value, 0);
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON representation");
  return text;
}

/**
 * Whether JSON.stringify(value) already is the RFC 8785 form: plain data (no toJSON, no class
 * instances) whose object keys are in code-unit order (JSON.stringify writes them in Object.keys
 * order, RFC 8785 sorts them), with well-formed strings and finite numbers, which JSON.stringify
 * writes exactly as RFC 8785 prescribes. Anything else takes the general path; nesting past
 * MAX_JSON_DEPTH (cycles included) is refused.
 */
function stringifiesCanonically(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
      return (value as string & { isWellFormed(): boolean }).isWellFormed();
    case "number":
      return Number.isFinite(value);
    case "boolean":
      return true;
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_JSON_DEPTH) throw new JsonTooDeepError();
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!stringifiesCanonically(value[i], depth + 1)) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if ((i > 0 && !(keys[i - 1]! < key)) || !(key as string & { isWellFormed(): boolean }).isWellFormed()) return false;
    if (!stringifiesCanonically((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** Refuses nesting past MAX_JSON_DEPTH before the general path recurses (that path is rare: the cost is only paid there). */
function checkDepth(value: unknown, depth: number): void {
  if (typeof value !== "object" || value === null) return;
  if (depth >= MAX_JSON_DEPTH) throw new JsonTooDeepError();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkDepth(value[i], depth + 1);
    return;
  }
  for (const key of Object.keys(value)) checkDepth((value as Record<string, unknown>)[key], depth + 1);
}

/** `sha256-<hex>` of raw bytes or text (UTF-8). */
export function sha256(data: string | Uint8Array): string {
  // crypto.hash (Node >= 20.12) is the one-shot form, about 2.5x faster on the small inputs of a call.
  return `sha256-${typeof hash === "function" ? hash("sha256", data, "hex") : createHash("sha256").update(data).digest("hex")}`;
}

/** `sha256-<hex>` of a JSON value's canonical form. */
export function hashJson(value: unknown): string {
  return sha256(canonicalJson(value));
}
