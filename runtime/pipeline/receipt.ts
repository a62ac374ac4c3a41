import type { CallOutcome, Receipt } from "../../src/contract/outcome.js";
import { sha256 } from "../../src/contract/hash.js";
import type { RepeatHolder } from "../run/repeat-index.js";
import { journalCompletion } from "./journal.js";
import type { CallState, Failure, Success } from "./state.js";
import { monotonicMs } from "../run/clock.js";

/** The argument hash of a call whose arguments have no JSON form: the hash of zero bytes, which no JSON text has. */
export const NO_JSON_SHA256 = sha256("");

/** Stage 10, receipt: every call, nested and refused ones included, yields one; the sink has it before the outcome is returned. */
export function receipt(state: CallState, end: Success | Failure): CallOutcome | Promise<CallOutcome> {
  const fields = receiptFields(state, end);
  // What the broker served by now (a deadline kills the child, and so cuts its requests, before this runs). No
  // spread of an empty object for the calls without egress (most): one object fewer per call.
  const record: Receipt = Object.freeze(
    state.egress === undefined ? fields : { ...fields, egress: Object.freeze([...state.egress]) },
  );
  const outcome = outcomeOf(state, end, record);
  if (state.journaled !== undefined) return journaled(state, outcome);
  const sink = state.engine.options.receipts;
  const holder = state.repeat;
  if (sink === undefined) {
    if (holder !== undefined) holder.receipt = "written";
    return outcome;
  }
  let pending: void | Promise<void>;
  try {
    pending = sink.record(record);
  } catch (thrown) {
    if (holder !== undefined) holder.receipt = "lost";
    throw thrown;
  }
  return recorded(pending, outcome, holder);
}

/**
 * The receipt's fields. The two hashes are read from the call's snapshots when first asked for (a sink, a journal, the
 * caller): a snapshot keeps a private copy of what the call received or returned, so the hash is that of the exact
 * bytes at the time of the call whenever it is read, and a call whose receipt nobody reads pays for no hashing
 * (docs/decisions.md, "Canonical text and hashes on first read"). They are own enumerable accessors (JSON.stringify,
 * structuredClone, spreads, Object.keys and the runtime's own JSON-data walk see them as the other fields, in the same
 * place) whose getters are shared by every receipt: a getter written in an object literal would be a new closure per
 * receipt, and so a new hidden class per receipt, which cost more than the hashing.
 */
function receiptFields(state: CallState, end: Success | Failure): Receipt {
  const fields: Record<string, unknown> = {
    callId: state.callId,
    parentId: state.parent === null ? null : state.parent.callId,
    runId: state.run.id,
    correlationId: state.parent === null ? (state.options.correlationId ?? null) : null,
    tool: state.name,
    lockIntegrity: state.engine.lock.integrity,
  };
  ReceiptHashes.stamp(fields, state.args$, end.ok === true ? end.result : null);
  defineGetter.call(fields, "argsSha256", argsSha256);
  defineGetter.call(fields, "resultSha256", resultSha256);
  fields.outcome = end.ok === true ? "ok" : end.code;
  fields.effectUnknown = state.effectUnknown;
  fields.durationMs = Math.round((monotonicMs() - state.startedAt) * 1000) / 1000;
  // Only a call that reached its dispatcher ran tool code under anything.
  fields.isolation = state.dispatched ? (state.dispatcher?.isolation?.() ?? null) : null;
  return fields as unknown as Receipt;
}

type Hashed = { readonly sha256: string };

/**
 * A base class whose constructor returns the object it is given, so that a subclass's private fields are added to an
 * object the subclass did not create (the "return override" of class constructors).
 */
class OntoObject {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of this class (see its comment).
    return target as OntoObject;
  }
}

/**
 * A receipt's hashes until read: the snapshots, let go of once their hash is known. Private fields added to the
 * receipt object itself: invisible to every reflection (keys, descriptors, JSON, structuredClone, spreads), so nothing
 * holding the receipt can see or swap a snapshot before its hash is read. Cheaper than the alternatives measured:
 * a non-enumerable property holding them (one more defineProperty per receipt, ~0.12 µs), a WeakMap (~1.5 µs).
 */
class ReceiptHashes extends OntoObject {
  /** The arguments' snapshot until its hash is read, then the hash (one field for both: one transition fewer). */
  #args: Hashed | string;
  /** The result's snapshot until its hash is read, then the hash; null when the call did not succeed. */
  #result: Hashed | string | null;

  /** `args` undefined: the arguments had no JSON form; `result` null: the call did not succeed. */
  private constructor(receipt: object, args: Hashed | undefined, result: Hashed | null) {
    super(receipt);
    this.#args = args ?? NO_JSON_SHA256;
    this.#result = result;
  }

  static stamp(receipt: object, args: Hashed | undefined, result: Hashed | null): void {
    new ReceiptHashes(receipt, args, result);
  }

  static args(receipt: object): string {
    const self = receipt as ReceiptHashes;
    const held = self.#args;
    if (typeof held === "string") return held;
    const sha256 = held.sha256;
    self.#args = sha256;
    return sha256;
  }

  static result(receipt: object): string | null {
    const self = receipt as ReceiptHashes;
    const held = self.#result;
    if (held === null || typeof held === "string") return held;
    const sha256 = held.sha256;
    self.#result = sha256;
    return sha256;
  }
}

function argsSha256(this: object): string {
  return ReceiptHashes.args(this);
}

function resultSha256(this: object): string | null {
  return ReceiptHashes.result(this);
}

/**
 * How the two accessors are added: Annex B's `__defineGetter__` makes the same own enumerable accessor as
 * `Object.defineProperty` with `{ enumerable: true, get }` once the receipt is frozen (configurable is then false
 * either way), without reading a descriptor object: ~0.07 µs a receipt less (docs/benchmarks.md, "Runtime"). Taken
 * from Object.prototype when this module loads, as the global `Object.defineProperty` was.
 */
const defineGetter = (
  Object.prototype as unknown as { __defineGetter__(this: object, key: string, get: () => unknown): void }
).__defineGetter__;

function outcomeOf(state: CallState, end: Success | Failure, record: Receipt): CallOutcome {
  const logs = state.logs;
  if (end.ok === true)
    return logs === undefined
      ? { ok: true, content: end.content, receipt: record }
      : { ok: true, content: end.content, receipt: record, logs };
  const error =
    end.stack === undefined
      ? { code: end.code, message: end.message }
      : { code: end.code, message: end.message, stack: end.stack };
  return logs === undefined ? { ok: false, error, receipt: record } : { ok: false, error, receipt: record, logs };
}

/** A journaled call: its completion is committed before the sink or the caller sees the outcome. */
async function journaled(state: CallState, decided: CallOutcome): Promise<CallOutcome> {
  const holder = state.repeat;
  try {
    const outcome = await journalCompletion(state, decided, state.tool!.result.plan.strategy);
    const sink = state.engine.options.receipts;
    if (sink !== undefined) await sink.record(outcome.receipt);
    if (holder !== undefined) holder.receipt = "written";
    return outcome;
  } catch (thrown) {
    if (holder !== undefined) holder.receipt = "lost";
    throw thrown;
  }
}

/** Waits for the sink (it may be a durable journal) before the outcome is returned; a sink that throws rejects the call. */
async function recorded(
  pending: void | Promise<void>,
  outcome: CallOutcome,
  holder: RepeatHolder | undefined,
): Promise<CallOutcome> {
  try {
    await pending;
  } catch (thrown) {
    if (holder !== undefined) holder.receipt = "lost";
    throw thrown;
  }
  if (holder !== undefined) holder.receipt = "written";
  return outcome;
}
