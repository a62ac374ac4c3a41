import { canonicalJson } from "../hash.js";

/**
 * The serialised form of a result that plans page, store, hash and recover: its RFC 8785 canonical
 * JSON (UTF-8). It is the text receipts already hash, so a recovery reference, a page cursor and
 * the call's receipt all name the same sha256.
 */
export function serializeResult(value: unknown): string {
  return canonicalJson(value === undefined ? null : value);
}
