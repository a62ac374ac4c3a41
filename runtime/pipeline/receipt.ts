import type { CallOutcome, Receipt } from "../../src/contract/outcome.js";
import { sha256 } from "../../src/contract/hash.js";
import type { RepeatHolder } from "../run/run-state.js";
import { journalCompletion } from "./journal.js";
import type { CallState, Failure, Success } from "./state.js";

/** The argument hash of a call whose arguments have no JSON form: the hash of zero bytes, which no JSON text has. */
export const NO_JSON_SHA256 = sha256("");

/** Stage 10, receipt: every call, nested and refused ones included, yields one; the sink has it before the outcome is returned. */
export function receipt(state: CallState, end: Success | Failure): CallOutcome | Promise<CallOutcome> {
  const fields = {
    callId: state.callId,
    parentId: state.parent === null ? null : state.parent.callId,
    runId: state.run.id,
    correlationId: state.parent === null ? (state.options.correlationId ?? null) : null,
    tool: state.name,
    lockIntegrity: state.engine.lock.integrity,
    argsSha256: state.args$ === undefined ? NO_JSON_SHA256 : state.args$.sha256,
    resultSha256: end.ok === true ? end.resultSha256 : null,
    outcome: end.ok === true ? "ok" : end.code,
    effectUnknown: state.effectUnknown,
    durationMs: Math.round((performance.now() - state.startedAt) * 1000) / 1000,
    // Only a call that reached its dispatcher ran tool code under anything.
    isolation: state.dispatched ? (state.dispatcher?.isolation?.() ?? null) : null,
  } as const;
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
