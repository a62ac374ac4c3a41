// @ts-check
// Turns a tool's value into JSON text, or says exactly why it is not plain JSON data, with the rules and words of
// data-rules.mjs, which the host's snapshot (runtime/pipeline/json-data.ts) uses too: nothing is dropped or converted. The text is
// written here rather than by JSON.stringify, which silently drops undefined fields and functions and calls toJSON;
// each property is read once. Built-ins are captured before any tool code loads.
import { classInstance, MAX_DEPTH, nativeProblem, NOT_DATA, nonFinite, pointerSegment } from "./data-rules.mjs";

/** @typedef {import("./data-rules.mjs").DataProblem} DataProblem */

const { getPrototypeOf, keys } = Object;
const { isArray } = Array;
const ObjectPrototype = Object.prototype;
const ArrayPrototype = Array.prototype;
const quote = JSON.stringify;
const { isFinite } = Number;
const byteLength = Buffer.byteLength;

class NotData {
  /** @param {DataProblem} problem */
  constructor(problem) {
    this.problem = problem;
  }
}

const TOO_LARGE = Symbol("too-large");
const TOO_DEEP = Symbol("too-deep");

/**
 * @param {unknown} value
 * @param {number} maxBytes
 * @returns {{ ok: true, text: string, bytes: number } | { ok: false, problem: DataProblem }}
 */
export function serialise(value, maxBytes) {
  /** @type {string[]} */
  const segments = [];
  const ancestors = new Set();
  let bytes = 0;
  const path = () => segments.map(pointerSegment).join("");
  /** @param {string} what @returns {never} */
  const fail = (what) => {
    throw new NotData({ kind: "not-data", path: path(), what });
  };
  /** @param {number} n */
  const add = (n) => {
    bytes += n;
    if (bytes > maxBytes) throw TOO_LARGE;
  };

  /** @param {unknown} v @param {string} key @returns {string} */
  const walk = (v, key) => {
    switch (typeof v) {
      case "string":
        add(v.length + 2);
        return quote(v);
      case "number":
        if (!isFinite(v)) fail(nonFinite(v));
        add(1);
        return quote(v);
      case "boolean":
        add(5);
        return v ? "true" : "false";
      case "undefined":
        return fail(NOT_DATA.undefined);
      case "bigint":
        return fail(NOT_DATA.bigint);
      case "symbol":
        return fail(NOT_DATA.symbol);
      case "function":
        return fail(NOT_DATA.function);
    }
    if (v === null) {
      add(4);
      return "null";
    }
    const object = /** @type {object} */ (v);
    if (ancestors.size >= MAX_DEPTH) throw TOO_DEEP;
    if (ancestors.has(object)) fail(NOT_DATA.cycle);
    ancestors.add(object);
    const text = isArray(object) ? array(object) : record(object, key);
    ancestors.delete(object);
    return text;
  };

  /** @param {unknown[]} list */
  const array = (list) => {
    if (getPrototypeOf(list) !== ArrayPrototype) fail(NOT_DATA.arraySubclass);
    add(2 + list.length);
    const parts = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      segments.push(String(i));
      parts[i] = walk(list[i], String(i));
      segments.pop();
    }
    return `[${parts.join(",")}]`;
  };

  /** @param {object} object @param {string} key */
  const record = (object, key) => {
    const proto = getPrototypeOf(object);
    if (proto !== ObjectPrototype && proto !== null) fail(classInstance(proto));
    const names = keys(object);
    add(2 + names.length);
    const parts = new Array(names.length);
    for (let i = 0; i < names.length; i++) {
      const k = /** @type {string} */ (names[i]);
      segments.push(k);
      if (k === "__proto__" || (k === "prototype" && key === "constructor"))
        throw new NotData({ kind: "pollution", path: path() });
      add(k.length + 3);
      parts[i] = `${quote(k)}:${walk(/** @type {Record<string, unknown>} */ (object)[k], k)}`;
      segments.pop();
    }
    return `{${parts.join(",")}}`;
  };

  let text;
  try {
    text = walk(value, "");
  } catch (thrown) {
    if (thrown === TOO_LARGE) return { ok: false, problem: { kind: "too-large", bytes } };
    if (thrown === TOO_DEEP) return { ok: false, problem: { kind: "too-deep", maxDepth: MAX_DEPTH } };
    if (thrown instanceof NotData) return { ok: false, problem: thrown.problem };
    return { ok: false, problem: { kind: "not-data", path: path(), what: NOT_DATA.throwingRead } };
  }
  const exact = byteLength(text, "utf8");
  if (exact > maxBytes) return { ok: false, problem: { kind: "too-large", bytes: exact } };
  return { ok: true, text, bytes: exact };
}

const stringify = JSON.stringify;

/**
 * The output of a tool without an output schema: what JSON.stringify makes of it (native JSON
 * serialisation, as the host's nativeSnapshot in runtime/pipeline/json-data.ts), plain data taking serialise's
 * path unchanged. The host checks the text it receives with its own rules (depth, __proto__ keys).
 * @param {unknown} value
 * @param {number} maxBytes
 * @returns {{ ok: true, text: string, bytes: number } | { ok: false, problem: DataProblem }}
 */
export function serialiseNative(value, maxBytes) {
  const plain = serialise(value, maxBytes);
  if (plain.ok || plain.problem.kind !== "not-data") return plain;
  let text;
  try {
    text = stringify(value);
  } catch (thrown) {
    return { ok: false, problem: nativeProblem(thrown) };
  }
  if (text === undefined) text = "null";
  const bytes = byteLength(text, "utf8");
  if (bytes > maxBytes) return { ok: false, problem: { kind: "too-large", bytes } };
  return { ok: true, text, bytes };
}
