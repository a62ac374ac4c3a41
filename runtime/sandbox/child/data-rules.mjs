// @ts-check
// What "plain JSON data" means, for both ends of a call: the host's snapshot (runtime/pipeline/json-data.ts) and the sandbox
// child's serialiser (plain-data.mjs, beside this file because the child may read only this folder) import the kinds
// of problem and their wording from here, so a value is refused for the same reason in the same words on both sides
// (test/sandbox/data-parity.test.ts runs both over one table). The walks themselves stay apart: the host's is tuned per
// call and also builds a detached copy; the child's writes text with built-ins captured before tool code loads.

/**
 * Why a value cannot cross the call boundary as JSON data.
 * `native`: JSON.stringify itself refused the value (a schema-less tool's output): a BigInt, a cycle, a getter or
 * toJSON that throws.
 * @typedef {{ readonly kind: "too-large"; readonly bytes: number }
 *   | { readonly kind: "too-deep"; readonly maxDepth: number }
 *   | { readonly kind: "not-data"; readonly path: string; readonly what: string }
 *   | { readonly kind: "pollution"; readonly path: string }
 *   | { readonly kind: "native"; readonly what: string }} DataProblem
 */

/**
 * Objects and arrays nested deeper than this are refused wherever JSON data is walked; the same number as
 * MAX_JSON_DEPTH in src/contract/hash.ts (which the child cannot import; a test holds them equal).
 */
export const MAX_DEPTH = 256;

/** The words for each kind of value that is not plain JSON data. */
export const NOT_DATA = Object.freeze({
  undefined: "undefined",
  bigint: "a BigInt",
  symbol: "a Symbol",
  function: "a function",
  cycle: "a cycle (the value contains itself)",
  arraySubclass: "an instance of an Array subclass",
  throwingRead: "a property whose read throws",
  loneSurrogateString: "a string with a lone surrogate (not valid Unicode)",
  loneSurrogateKey: "a key with a lone surrogate (not valid Unicode)",
  pollution: "a __proto__ or constructor.prototype key",
});

/** @param {number} value a NaN or an infinity */
export function nonFinite(value) {
  return `a non-finite number (${String(value)})`;
}

/** An object whose prototype is neither Object.prototype nor null. @param {any} proto */
export function classInstance(proto) {
  const name =
    typeof proto?.constructor?.name === "string" && proto.constructor.name !== ""
      ? proto.constructor.name
      : "an unnamed class";
  return `an instance of ${name}`;
}

/** A JSON Pointer segment ("/" then the key with "~" and "/" escaped). @param {string | number} segment */
export function pointerSegment(segment) {
  return `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/**
 * Why JSON.stringify threw, in words that never quote the value.
 * @param {unknown} thrown
 * @returns {DataProblem}
 */
export function nativeProblem(thrown) {
  // Nesting deep enough to overflow JSON.stringify's recursion (the walk stopped at an earlier problem).
  if (thrown instanceof RangeError) return { kind: "too-deep", maxDepth: MAX_DEPTH };
  let message = "";
  try {
    message = thrown instanceof TypeError ? String(thrown.message) : "";
  } catch {
    // A thrown value whose message cannot be read: a getter or toJSON threw it.
  }
  if (/BigInt/.test(message)) return { kind: "native", what: NOT_DATA.bigint };
  if (/circular/i.test(message)) return { kind: "native", what: NOT_DATA.cycle };
  return { kind: "native", what: "a getter or toJSON method that throws" };
}
