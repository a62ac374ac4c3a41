import { canonicalJson, MAX_JSON_DEPTH, sha256 } from "../../src/contract/hash.js";
import { structuralHash } from "../canonical/structural-hash.js";
import {
  classInstance,
  type DataProblem,
  nativeProblem,
  NOT_DATA,
  nonFinite,
  pointerSegment,
} from "../sandbox/child/data-rules.mjs";

// The kinds of problem and their words are shared with the sandbox child (one module, in the child's folder).
export type { DataProblem };

/**
 * A detached plain-JSON copy of a value with its canonical text, size and hash. The text, size and hash are worked
 * out when first read, from a sorted twin the snapshot keeps to itself (no part of it is `value`, which the tool or
 * the caller receives and may change): they are the value's as it was when the snapshot was taken, whenever they
 * are read. Most calls read none of them until a receipt's hash is asked for (docs/decisions.md, "Canonical text and
 * hashes on first read").
 */
export interface DataSnapshot {
  readonly ok: true;
  readonly value: unknown;
  readonly bytes: number;
  /** An upper bound of `bytes` known without writing the text (`bytes` itself once it is known). */
  readonly bytesAtMost: number;
  readonly sha256: string;
  /** The canonical JSON that `sha256` hashes (result plans page and store exactly this text). */
  readonly text: string;
  /**
   * A 32-bit hash that equal canonical texts share (canonical/structural-hash.ts), worked out without the text: the
   * repeat guard's bucket. Different texts may share it.
   */
  readonly repeatHash: number;
  /**
   * The schema's emitted walk took the value and found every keyword it checks true: the schema's validator accepts
   * `value`, and need not run (compiler/validators/canonical-checks.ts). False says nothing: the validator decides.
   */
  readonly valid: boolean;
}

export type SnapshotResult = DataSnapshot | { readonly ok: false; readonly problem: DataProblem };

const TOO_LARGE = Symbol("too-large");
const TOO_DEEP = Symbol("too-deep");

/**
 * Objects and arrays nested deeper than MAX_JSON_DEPTH (256) are refused wherever the runtime walks
 * JSON data (arguments, results, nested calls, sandbox frames). Every walker, validator and serialiser
 * behind this one (RFC 8785 canonicalisation, Ajv, JSON.stringify, result plans) recurses, and a value
 * ~2,000 levels deep overflows the stack of some of them; 256 is far past any data a tool exchanges
 * (docs/decisions.md).
 */
export { MAX_JSON_DEPTH };

/**
 * A schema's build-time canonical-JSON serializer (compiler/validators/canonical.ts, emitted beside its validator):
 * the canonical text and detached copy of a value of the schema's shape, the same as the general walk's, or
 * undefined for any other value (the general walk then decides). `valid`: the schema's validator accepts the copy
 * (absent from the serializers of builds before it was emitted).
 */
export type CanonicalSerializer = (
  value: unknown,
  maxBytes: number,
) =>
  | { readonly value: unknown; readonly sorted: unknown; readonly bytes: number; readonly valid?: boolean }
  | undefined;

/**
 * Copies a value as plain JSON data, or says exactly why it is not: functions, Symbols, BigInt,
 * undefined fields, non-finite numbers, cycles, class instances, accessors that throw and
 * `__proto__` / `constructor.prototype` keys are refused, never dropped or converted. Only own enumerable string keys
 * are data (as for JSON.stringify and structuredClone): Symbol keys and non-enumerable properties are metadata, never
 * copied, hashed or refused (docs/decisions.md, "Symbol keys are metadata"). The copy
 * reads every property once, so the hashed bytes and the returned value cannot drift apart, and the
 * caller's (or tool's) object can be mutated later without changing what was recorded.
 * Size is bounded while walking (a string's length is a lower bound on its UTF-8 bytes), so a 50 MB
 * value is refused at the cap without being serialised; the exact check is on the canonical bytes.
 * With `shaped`, the schema's emitted serializer tries first (one pass, no sorting); a value it gives up
 * on is walked again here, and only that walk's reads are kept.
 */
export function snapshotJson(value: unknown, maxBytes: number, shaped?: CanonicalSerializer): SnapshotResult {
  if (shaped !== undefined && !prototypesPatched()) {
    const fast = shaped(value, maxBytes);
    if (fast !== undefined)
      return withinCap(new Snapshot(fast.value, fast.sorted, false, fast.bytes, fast.valid === true), maxBytes);
  }
  // One walker is reused (calls are frequent and it holds no state between walks); a getter that
  // starts another snapshot while one is running gets its own.
  const walker = idle.busy ? new Walker() : idle;
  walker.start(maxBytes);
  let snapshot: Snapshot;
  try {
    const copy = walker.walk(value, "");
    snapshot = new Snapshot(copy, walker.sorted, walker.general, walker.bytes, false);
  } catch (thrown) {
    if (thrown === TOO_LARGE) return { ok: false, problem: { kind: "too-large", bytes: walker.bytes } };
    if (thrown === TOO_DEEP) return { ok: false, problem: { kind: "too-deep", maxDepth: MAX_JSON_DEPTH } };
    if (thrown instanceof NotData) return { ok: false, problem: thrown.problem };
    // A getter or a proxy trap threw while we read the value.
    return { ok: false, problem: { kind: "not-data", path: walker.path(), what: NOT_DATA.throwingRead } };
  } finally {
    walker.finish();
  }
  return withinCap(snapshot, maxBytes);
}

/**
 * What a walk counts (a string's length, one per number) is a lower bound of the text's UTF-8 bytes, and each
 * counted unit stands for at most 24 bytes of it: a string's code unit for at most 6 (a `\u001f` escape), a number
 * for at most 24 (`-1.7976931348623157e+308`). So a value counted under a 24th of the cap is within it without its
 * text; any other has its text written now and measured exactly.
 */
const MAX_BYTES_PER_COUNTED = 24;

function withinCap(snapshot: Snapshot, maxBytes: number): SnapshotResult {
  if (snapshot.bytesAtMost <= maxBytes) return snapshot;
  const bytes = snapshot.bytes;
  return bytes > maxBytes ? { ok: false, problem: { kind: "too-large", bytes } } : snapshot;
}

class Snapshot implements DataSnapshot {
  readonly ok = true as const;
  /** The sorted twin until the text is written. */
  #sorted: unknown;
  readonly #general: boolean;
  #text: string | undefined = undefined;
  #bytes = -1;
  #sha256: string | undefined = undefined;
  #repeatHash = -1;
  /** What the walk counted: a lower bound of the text's bytes (see MAX_BYTES_PER_COUNTED). */
  readonly #counted: number;
  /** Private, as the rest of what the walk worked out: a snapshot's own fields are the data's (`ok`, `value`). */
  readonly #valid: boolean;

  constructor(
    readonly value: unknown,
    sorted: unknown,
    general: boolean,
    counted: number,
    valid: boolean,
  ) {
    this.#valid = valid;
    this.#sorted = sorted;
    this.#general = general;
    this.#counted = counted;
  }

  get valid(): boolean {
    return this.#valid;
  }

  get bytesAtMost(): number {
    return this.#bytes >= 0 ? this.#bytes : this.#counted * MAX_BYTES_PER_COUNTED;
  }

  get text(): string {
    if (this.#text === undefined) {
      // `sorted` is plain JSON data with every object's keys in code-unit order, so JSON.stringify writes exactly
      // canonicalJson's bytes (the reasoning of canonicalJson's own fast path); the rare values it cannot stand for
      // (array-index keys, a patched prototype) take canonicalJson itself. Both recurse, safely: nothing deeper than
      // MAX_JSON_DEPTH got here.
      const sorted = this.#sorted;
      this.#text = this.#general || prototypesPatched() ? canonicalJson(sorted) : JSON.stringify(sorted);
      this.#sorted = undefined;
    }
    return this.#text;
  }

  get repeatHash(): number {
    // Of the twin, or, once the text is written, of the text parsed back: the same data, keys in the same order
    // (canonical text writes them sorted; integer-like keys come first in any object), so the same hash.
    if (this.#repeatHash < 0)
      this.#repeatHash = structuralHash(this.#text === undefined ? this.#sorted : JSON.parse(this.#text));
    return this.#repeatHash;
  }

  get bytes(): number {
    if (this.#bytes < 0) this.#bytes = Buffer.byteLength(this.text);
    return this.#bytes;
  }

  get sha256(): string {
    if (this.#sha256 === undefined) this.#sha256 = sha256(this.text);
    return this.#sha256;
  }
}

/**
 * What JSON.stringify makes of a value, as a snapshot: the serialisation a tool without an output
 * schema keeps (the contract: "schema-less tools keep native JSON serialization"). A Date becomes its
 * string, toJSON is honoured, undefined fields, functions and Symbols are dropped (null in arrays), NaN
 * and Infinity become null, a class instance its own enumerable properties; a value that is plain data
 * already takes snapshotJson's path unchanged. What JSON.stringify refuses (a BigInt, a cycle, a getter
 * or toJSON that throws) is refused here too, and the result must still pass snapshotJson's rules
 * (byte cap, depth, no __proto__ key, valid Unicode).
 */
export function nativeSnapshot(value: unknown, maxBytes: number): SnapshotResult {
  const plain = snapshotJson(value, maxBytes);
  if (plain.ok || plain.problem.kind !== "not-data") return plain;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (thrown) {
    return { ok: false, problem: nativeProblem(thrown) };
  }
  // A function or Symbol at the top level has no JSON text: it is returned as nothing is, as null.
  if (text === undefined) text = "null";
  if (text.length > maxBytes || Buffer.byteLength(text) > maxBytes)
    return { ok: false, problem: { kind: "too-large", bytes: Buffer.byteLength(text) } };
  return snapshotJson(JSON.parse(text), maxBytes);
}

/** A toJSON method every object or array would inherit: JSON.stringify would call it, so the general path decides. */
function prototypesPatched(): boolean {
  return (
    typeof (Object.prototype as { toJSON?: unknown }).toJSON === "function" ||
    typeof (Array.prototype as { toJSON?: unknown }).toJSON === "function"
  );
}

/** A path as a JSON Pointer ("" is the whole value), shortened for messages. */
export function describePath(path: string): string {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return shown === "" ? "the top level" : shown;
}

class NotData {
  constructor(readonly problem: DataProblem) {}
}

/** Past this depth the ancestor check uses a Set; above it, a scan of the few ancestors is cheaper. */
const SCAN_DEPTH = 16;
/** A key that V8 orders numerically before the others, whatever the insertion order. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * Walks a value once, building its detached copy (keys in their original order: the copy is what the
 * tool or the caller gets) and, from the same reads, a sorted twin for the canonical text: a second
 * detached copy with each object's keys inserted in code-unit order, sharing nothing with the first
 * (the text may be written after the copy was changed by whoever received it).
 */
class Walker {
  bytes = 0;
  busy = false;
  /** The sorted twin of the last value walk() returned (a leaf is its own twin). */
  sorted: unknown = undefined;
  /** The twin cannot stand for the canonical text (an array-index key out of order). */
  general = false;
  private maxBytes = 0;
  private readonly segments: Array<string | number> = [];
  /** The objects being walked, outermost first; all of them also in `deep` once there are more than SCAN_DEPTH. */
  private readonly ancestors: object[] = [];
  private readonly deep = new Set<object>();

  start(maxBytes: number): void {
    this.busy = true;
    this.bytes = 0;
    this.maxBytes = maxBytes;
    this.general = false;
  }

  /** After a walk (thrown or not): nothing of the walked value is kept. A finished walk left these empty. */
  finish(): void {
    if (this.segments.length > 0) this.segments.length = 0;
    if (this.ancestors.length > 0) this.ancestors.length = 0;
    if (this.deep.size > 0) this.deep.clear();
    this.sorted = undefined;
    this.busy = false;
  }

  path(): string {
    return this.segments.map(pointerSegment).join("");
  }

  private fail(what: string): never {
    throw new NotData({ kind: "not-data", path: this.path(), what });
  }

  private add(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) throw TOO_LARGE;
  }

  /** The copy of `value`; its sorted twin is left in `this.sorted`. */
  walk(value: unknown, key: string): unknown {
    switch (typeof value) {
      case "string":
        // RFC 8785 (and every JSON parser) needs valid Unicode: a lone surrogate has no canonical form.
        if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) this.fail(NOT_DATA.loneSurrogateString);
        this.add(value.length + 2);
        this.sorted = value;
        return value;
      case "number":
        if (!Number.isFinite(value)) this.fail(nonFinite(value));
        this.add(1);
        this.sorted = value;
        return value;
      case "boolean":
        this.add(5);
        this.sorted = value;
        return value;
      case "undefined":
        return this.fail(NOT_DATA.undefined);
      case "bigint":
        return this.fail(NOT_DATA.bigint);
      case "symbol":
        return this.fail(NOT_DATA.symbol);
      case "function":
        return this.fail(NOT_DATA.function);
    }
    if (value === null) {
      this.add(4);
      this.sorted = null;
      return null;
    }
    const object = value as object;
    const ancestors = this.ancestors;
    const depth = ancestors.length;
    // Checked before anything else of the object is read: the refusal costs no deeper walk.
    if (depth >= MAX_JSON_DEPTH) throw TOO_DEEP;
    if (depth <= SCAN_DEPTH) {
      for (let i = 0; i < depth; i++) if (ancestors[i] === object) this.fail(NOT_DATA.cycle);
    } else if (this.deep.has(object)) this.fail(NOT_DATA.cycle);
    ancestors.push(object);
    // Deeper than SCAN_DEPTH, every ancestor is in `deep` too.
    if (depth === SCAN_DEPTH) for (const ancestor of ancestors) this.deep.add(ancestor);
    else if (depth > SCAN_DEPTH) this.deep.add(object);
    const copy = Array.isArray(object) ? this.array(object) : this.object(object, key);
    ancestors.pop();
    if (depth === SCAN_DEPTH) this.deep.clear();
    else if (depth > SCAN_DEPTH) this.deep.delete(object);
    return copy;
  }

  private array(array: unknown[]): unknown[] {
    if (Object.getPrototypeOf(array) !== Array.prototype) this.fail(NOT_DATA.arraySubclass);
    this.add(2 + array.length);
    const copy = new Array<unknown>(array.length);
    const twin = new Array<unknown>(array.length);
    for (let i = 0; i < array.length; i++) {
      this.segments.push(i);
      copy[i] = this.walk(array[i], "");
      twin[i] = this.sorted;
      this.segments.pop();
    }
    this.sorted = twin;
    return copy;
  }

  private object(object: object, key: string): Record<string, unknown> {
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) this.fail(classInstance(proto));
    const keys = Object.keys(object);
    this.add(2 + keys.length);
    const copy: Record<string, unknown> = {};
    // The twin in the value's key order; rebuilt in code-unit order below if that differs.
    let twin: Record<string, unknown> = {};
    let inOrder = true;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      this.segments.push(k);
      // Refused rather than stripped: a key that would reach Object.prototype through a naive merge.
      if (k === "__proto__" || (k === "prototype" && key === "constructor"))
        throw new NotData({ kind: "pollution", path: this.path() });
      if (!(k as string & { isWellFormed(): boolean }).isWellFormed()) this.fail(NOT_DATA.loneSurrogateKey);
      this.add(k.length + 3);
      if (i > 0 && !(keys[i - 1]! < k)) inOrder = false;
      copy[k] = this.walk((object as Record<string, unknown>)[k], k);
      twin[k] = this.sorted;
      this.segments.pop();
    }
    if (!inOrder) {
      // V8 puts array-index keys first in numeric order whatever the insertion order, so such an object
      // cannot be written in code-unit order by JSON.stringify.
      if (keys.some(isArrayIndex)) this.general = true;
      const unsorted = twin;
      twin = {};
      for (const i of sortedOrder(keys)) twin[keys[i]!] = unsorted[keys[i]!];
    }
    this.sorted = twin;
    return copy;
  }
}

function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && ARRAY_INDEX.test(key);
}

/** Indices of `keys` in code-unit order of the keys: an insertion sort for the few keys most objects have (no comparator calls). */
function sortedOrder(keys: readonly string[]): number[] {
  if (keys.length > 16) return keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
  const order = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i;
    while (j > 0 && keys[order[j - 1]!]! > key) {
      order[j] = order[j - 1]!;
      j--;
    }
    order[j] = i;
  }
  return order;
}

const idle = new Walker();
