import { canonicalJson, sha256 } from "../src/contract/hash.js";

/** Why a value cannot cross the call boundary as JSON data. */
export type DataProblem =
  | { readonly kind: "too-large"; readonly bytes: number }
  | { readonly kind: "not-data"; readonly path: string; readonly what: string }
  | { readonly kind: "pollution"; readonly path: string };

/** A detached plain-JSON copy of a value with its canonical text, size and hash. */
export interface DataSnapshot {
  readonly ok: true;
  readonly value: unknown;
  readonly bytes: number;
  readonly sha256: string;
  /** The canonical JSON that `sha256` hashes (result plans page and store exactly this text). */
  readonly text: string;
}

export type SnapshotResult = DataSnapshot | { readonly ok: false; readonly problem: DataProblem };

const TOO_LARGE = Symbol("too-large");

/**
 * Copies a value as plain JSON data, or says exactly why it is not: functions, Symbols, BigInt,
 * undefined fields, non-finite numbers, cycles, class instances, accessors that throw, symbol keys
 * and `__proto__` / `constructor.prototype` keys are refused, never dropped or converted. The copy
 * reads every property once, so the hashed bytes and the returned value cannot drift apart, and the
 * caller's (or tool's) object can be mutated later without changing what was recorded.
 * Size is bounded while walking (a string's length is a lower bound on its UTF-8 bytes), so a 50 MB
 * value is refused at the cap without being serialised; the exact check is on the canonical bytes.
 */
export function snapshotJson(value: unknown, maxBytes: number): SnapshotResult {
  // One walker is reused (calls are frequent and it holds no state between walks); a getter that
  // starts another snapshot while one is running gets its own.
  const walker = idle.busy ? new Walker() : idle;
  walker.start(maxBytes);
  let copy: unknown;
  try {
    copy = walker.walk(value, "");
  } catch (thrown) {
    if (thrown === TOO_LARGE) return { ok: false, problem: { kind: "too-large", bytes: walker.bytes } };
    if (thrown instanceof NotData) return { ok: false, problem: thrown.problem };
    // A getter or a proxy trap threw while we read the value.
    return { ok: false, problem: { kind: "not-data", path: walker.path(), what: "a property whose read throws" } };
  } finally {
    walker.finish();
  }
  const text = canonicalJson(copy);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) return { ok: false, problem: { kind: "too-large", bytes } };
  return { ok: true, value: copy, bytes, sha256: sha256(text), text };
}

/** A path as a JSON Pointer ("" is the whole value), shortened for messages. */
export function describePath(path: string): string {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return shown === "" ? "the top level" : shown;
}

class NotData {
  constructor(readonly problem: DataProblem) {}
}

class Walker {
  bytes = 0;
  busy = false;
  private maxBytes = 0;
  private readonly segments: Array<string | number> = [];
  private readonly ancestors = new Set<object>();

  start(maxBytes: number): void {
    this.busy = true;
    this.bytes = 0;
    this.maxBytes = maxBytes;
  }

  /** After a walk (thrown or not): nothing of the walked value is kept. A finished walk left both empty. */
  finish(): void {
    if (this.segments.length > 0) this.segments.length = 0;
    if (this.ancestors.size > 0) this.ancestors.clear();
    this.busy = false;
  }

  path(): string {
    return this.segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  }

  private fail(what: string): never {
    throw new NotData({ kind: "not-data", path: this.path(), what });
  }

  private add(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) throw TOO_LARGE;
  }

  walk(value: unknown, key: string): unknown {
    switch (typeof value) {
      case "string":
        // RFC 8785 (and every JSON parser) needs valid Unicode: a lone surrogate has no canonical form.
        if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) this.fail("a string with a lone surrogate (not valid Unicode)");
        this.add(value.length + 2);
        return value;
      case "number":
        if (!Number.isFinite(value)) this.fail(`a non-finite number (${String(value)})`);
        this.add(1);
        return value;
      case "boolean":
        this.add(5);
        return value;
      case "undefined":
        return this.fail("undefined");
      case "bigint":
        return this.fail("a BigInt");
      case "symbol":
        return this.fail("a Symbol");
      case "function":
        return this.fail("a function");
    }
    if (value === null) {
      this.add(4);
      return null;
    }
    const object = value as object;
    if (this.ancestors.has(object)) this.fail("a cycle (the value contains itself)");
    this.ancestors.add(object);
    const copy = Array.isArray(object) ? this.array(object) : this.object(object, key);
    this.ancestors.delete(object);
    return copy;
  }

  private array(array: unknown[]): unknown[] {
    if (Object.getPrototypeOf(array) !== Array.prototype) this.fail("an instance of an Array subclass");
    this.add(2 + array.length);
    const copy = new Array<unknown>(array.length);
    for (let i = 0; i < array.length; i++) {
      this.segments.push(i);
      copy[i] = this.walk(array[i], "");
      this.segments.pop();
    }
    return copy;
  }

  private object(object: object, key: string): Record<string, unknown> {
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      const name = typeof proto?.constructor?.name === "string" && proto.constructor.name !== "" ? proto.constructor.name : "an unnamed class";
      this.fail(`an instance of ${name}`);
    }
    if (Object.getOwnPropertySymbols(object).length > 0) this.fail("an object with Symbol keys");
    const keys = Object.keys(object);
    this.add(2 + keys.length);
    const copy: Record<string, unknown> = {};
    for (const k of keys) {
      this.segments.push(k);
      // Refused rather than stripped: a key that would reach Object.prototype through a naive merge.
      if (k === "__proto__" || (k === "prototype" && key === "constructor")) throw new NotData({ kind: "pollution", path: this.path() });
      if (!(k as string & { isWellFormed(): boolean }).isWellFormed()) this.fail("a key with a lone surrogate (not valid Unicode)");
      this.add(k.length + 3);
      copy[k] = this.walk((object as Record<string, unknown>)[k], k);
      this.segments.pop();
    }
    return copy;
  }
}

const idle = new Walker();
