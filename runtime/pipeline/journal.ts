import type { CallOutcome, Receipt } from "../../src/contract/outcome.js";
import { JournalError } from "../journal/journal-error.js";
import type { RunJournal } from "../journal/run-journal.js";
import type { Completion, Intent } from "../journal/types.js";
import { NO_JSON_SHA256 } from "./receipt.js";
import type { CallState, Failure } from "./state.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/** A journaled call on its way through the pipeline. */
export interface JournaledCall {
  readonly journal: RunJournal;
  readonly intent: Intent;
  /** The intent is committed (the completion then updates it). */
  intentRecorded: boolean;
  /** The journal refused a write: nothing more is recorded for this call. */
  failed: boolean;
}

/**
 * Stage 1b, journal match (journaled runs only, after resolve): the call gets its key, and
 * - a recorded completion is returned as it was recorded, byte for byte, without running anything
 *   (it already counted against the budget and the repeat guard when the run was rebuilt);
 * - a recorded intent without completion (the host stopped mid-call) is run again for a read tool,
 *   run again with the same idempotency key for an idempotent one, and answered EFFECT_UNKNOWN
 *   (recorded as its completion) for write and external tools;
 * - no match: the call goes on through the pipeline and is recorded.
 */
export async function journalMatch(state: CallState, journal: RunJournal): Promise<CallOutcome | Failure | undefined> {
  if (!journal.loaded) await journal.ready();
  const refused = journal.refused;
  if (refused !== undefined) return { code: refused.code, message: refused.message };
  const tool = state.tool!;
  const parentKey = state.parent === null ? null : (state.parent.journaled?.intent.key ?? null);
  const argsSha256 = state.args$ === undefined ? NO_JSON_SHA256 : state.args$.sha256;
  const key = journal.keyFor(parentKey, state.name, argsSha256);
  const recorded = journal.find(key.key);
  if (recorded?.completion) return replay(recorded.completion);
  if (state.options.replayOnly === true) {
    // The caller replays this call from its own record; the journal should hold it complete too.
    return {
      code: "JOURNAL_FAILED",
      message: `the caller replays this call of ${JSON.stringify(state.name)} from its own record (replayOnly), and run ${journal.runId}'s journal holds no completion for it, so nothing was run: the journal is not the one the run was recorded in, or the run was expired while its workflow was still going. Point the runtime at the journal the run was recorded in`,
    };
  }

  const intent: Intent = {
    ...key,
    runId: journal.runId,
    callId: state.callId,
    parentId: state.parent === null ? null : state.parent.callId,
    lockIntegrity: state.engine.lock.integrity,
    effect: tool.effect,
    idempotencyKey:
      tool.effect === "idempotent" ? (recorded?.intent.idempotencyKey ?? journal.idempotencyKey(key.key)) : null,
    at: Date.now(),
  };
  state.journaled = { journal, intent, intentRecorded: false, failed: false };
  if (recorded === undefined) return undefined;

  // In doubt. The effect it was recorded with decides (the lock may have changed it since).
  const effect = recorded.intent.effect;
  if (effect === "read" || effect === "idempotent") {
    // It is this call, not a repeat of it, and it was counted once already: the budget and the
    // repeat guard will count it again as it runs.
    state.run.calls -= 1;
    state.run.repeats.releaseRecorded(recorded.intent.tool, recorded.intent.argsSha256, recorded.intent.callId);
    return undefined;
  }
  state.journaled.intentRecorded = true;
  state.effectUnknown = true;
  return {
    code: "EFFECT_UNKNOWN",
    message: `tool ${JSON.stringify(state.name)} was called with these arguments in run ${journal.runId} before (call ${recorded.intent.callId}), and the journal shows it started but never finished (the host stopped mid-call); it has effect ${effect}, so it was not run again: its effect may already have happened. Check the system it acts on, then call it with different arguments or in a new run`,
  };
}

/** The recorded outcome, as it was returned when it was recorded (its receipt frozen, as every receipt is). */
function replay(completion: Completion): CallOutcome {
  const outcome = JSON.parse(completion.outcome) as CallOutcome;
  Object.freeze(outcome.receipt);
  return outcome;
}

/**
 * Stage 5b, journal intent (journaled runs only, after the effect gate, before the deadline): the
 * intent is committed before anything of the call's own runs. A write that fails is the call's
 * outcome (JOURNAL_FAILED): the call is not dispatched and gives back its budget.
 */
export async function journalIntent(state: CallState): Promise<Failure | undefined> {
  const journaled = state.journaled!;
  try {
    await journaled.journal.recordIntent(journaled.intent);
    journaled.intentRecorded = true;
    return undefined;
  } catch (thrown) {
    journaled.failed = true;
    state.run.calls -= 1;
    return {
      code: "JOURNAL_FAILED",
      message: `tool "${state.name}" was not run: ${describe(thrown)}. Nothing of it ran and nothing recorded before was lost; fix the journal's storage, then call it again`,
    };
  }
}

/**
 * Before the outcome is returned (receipt stage): the completion is committed. When it cannot be,
 * the outcome is not shown: the call answers JOURNAL_FAILED instead (for a dispatched tool that is
 * not read-only, with effectUnknown: it ran, and the journal will show it in doubt after a restart).
 */
export async function journalCompletion(
  state: CallState,
  outcome: CallOutcome,
  plan: string | null,
): Promise<CallOutcome> {
  const journaled = state.journaled!;
  // A call refused by the budget never counted; recording it would make the rebuilt budget count it.
  if (journaled.failed || (!journaled.intentRecorded && outcome.receipt.outcome === "BUDGET_EXCEEDED")) return outcome;
  const completion: Completion = {
    runId: journaled.intent.runId,
    key: journaled.intent.key,
    outcome: JSON.stringify(outcome),
    resultSha256: outcome.receipt.resultSha256,
    plan: outcome.ok ? plan : null,
    dispatched: state.dispatched,
    runElapsedMs: Math.round(state.run.elapsedMs() * 1000) / 1000,
    at: Date.now(),
  };
  try {
    await journaled.journal.recordCompletion(journaled.intent, completion, journaled.intentRecorded);
    return outcome;
  } catch (thrown) {
    journaled.failed = true;
    const effectUnknown = state.dispatched && state.tool!.effect !== "read";
    const ran = state.dispatched
      ? `ran${effectUnknown ? ` (it has effect ${state.tool!.effect}: its effect may have happened, and after a restart the journal shows it in doubt)` : ""}`
      : "was not dispatched";
    const receipt: Receipt = Object.freeze({
      ...outcome.receipt,
      resultSha256: null,
      outcome: "JOURNAL_FAILED",
      effectUnknown: outcome.receipt.effectUnknown || effectUnknown,
    });
    return {
      ok: false,
      error: {
        code: "JOURNAL_FAILED",
        message: `tool "${state.name}" ${ran}, but its outcome could not be recorded: ${describe(thrown)}. Its outcome is withheld; fix the journal's storage, then resume the run`,
      },
      receipt,
    };
  }
}

function describe(thrown: unknown): string {
  return thrown instanceof JournalError ? thrown.message : `the journal failed (${thrownText(thrown)})`;
}
