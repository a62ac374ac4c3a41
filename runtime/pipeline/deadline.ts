import { CallSignal } from "../call-signal.js";
import { DeadlineQueue, type Deadline } from "../deadline-queue.js";
import type { CallState, Failure } from "./state.js";

/** Every call's deadline shares one timer. */
const deadlines = new DeadlineQueue();

/**
 * Stage 7's frame, the deadline: loading, validation, execute and output validation of a call all
 * run against one deadline (the result stage runs after it: run-call.ts), the tool's locked timeoutMs (or the end of the run's wall-time budget
 * when that comes first), counted from the call's start. At the deadline the call resolves whatever
 * the tool is doing, the tool's AbortSignal is aborted (with those of its nested calls in flight), and
 * later nested calls are refused. A tool that is not read-only and was already dispatched gets
 * effectUnknown: it may have done part of its effect. The budget stage can end a call the same way
 * before its deadline (state.cut), when a nested call it makes is refused for the run's budget, and
 * so can the caller's AbortSignal (CANCELLED). In-process code that never yields (a synchronous
 * endless loop) cannot be interrupted by any deadline; only the child-process sandbox can stop it.
 */
export function underDeadline<T extends { readonly ok: true }>(state: CallState, work: (state: CallState) => Promise<T | Failure>): Promise<T | Failure> {
  const tool = state.tool!;
  // The caller's signal (call option `signal`; nested calls follow their parent's instead).
  const external = state.parent === null ? state.options.signal : undefined;
  if (external?.aborted === true) {
    state.abort = new CallSignal();
    return Promise.resolve({ code: "CANCELLED", message: `the call of tool "${state.name}" was cancelled by the caller before it started (${reasonText(external.reason)}); nothing ran` });
  }
  const remainingWall = state.run.budget.maxWallMs - state.run.elapsedMs(state.startedAt);
  const cutByBudget = remainingWall < tool.timeoutMs;
  const abort = new CallSignal();
  state.abort = abort;
  const unfollow = state.parent === null ? undefined : state.parent.abort!.adopt(abort);
  return new Promise<T | Failure>((resolve, reject) => {
    /** Stops listening: the deadline, the budget's cut, the caller's signal and the parent's. */
    const done = () => {
      state.cut = undefined;
      deadlines.settle(deadline);
      unfollow?.();
      if (cancel !== undefined) external!.removeEventListener("abort", cancel);
    };
    /** Ends the call now with `code` (the deadline, a stage that stops it early, or the caller): signal aborted, later nested calls refused. */
    const stop = (code: "TIMEOUT" | "BUDGET_EXCEEDED" | "CANCELLED", message: (unknown: string) => string) => {
      if (state.settled) return;
      state.settled = true;
      done();
      if (state.dispatched && tool.effect !== "read") state.effectUnknown = true;
      const text = message(state.effectUnknown ? `; it has effect ${tool.effect} and may have done part of it (effectUnknown)` : "");
      abort.abort(new DOMException(text, code === "CANCELLED" ? "AbortError" : "TimeoutError"));
      resolve({ code, message: text });
    };
    const deadline: Deadline = {
      at: state.startedAt + Math.max(0, cutByBudget ? remainingWall : tool.timeoutMs),
      pending: true,
      expire: () =>
        stop(cutByBudget ? "BUDGET_EXCEEDED" : "TIMEOUT", (unknown) =>
          cutByBudget
            ? `tool "${state.name}" was stopped when run ${state.run.id} reached its wall-time budget of ${state.run.budget.maxWallMs} ms${unknown}; start a new run or raise budget.maxWallMs`
            : `tool "${state.name}" did not finish within its timeout of ${tool.timeoutMs} ms; its signal was aborted${unknown}. Raise its timeout and rebuild, or make it finish sooner`,
        ),
    };
    state.cut = (why) => stop("BUDGET_EXCEEDED", (unknown) => `tool "${state.name}" was stopped: ${why}${unknown}; start a new run or raise its budget`);
    const cancel = external === undefined
      ? undefined
      : () => stop("CANCELLED", (unknown) => `the call of tool "${state.name}" was cancelled by the caller (${reasonText(external.reason)}); its signal was aborted${unknown}`);
    deadlines.add(deadline);
    if (cancel !== undefined) external!.addEventListener("abort", cancel, { once: true });
    work(state).then(
      (end) => {
        done();
        resolve(end);
      },
      (thrown: unknown) => {
        done();
        reject(thrown);
      },
    );
  });
}

/** An abort reason as a message shows it: its message when it has one, cut short. */
function reasonText(reason: unknown): string {
  const text = reason instanceof Error || (typeof reason === "object" && reason !== null && typeof (reason as { message?: unknown }).message === "string")
    ? String((reason as { message: string }).message)
    : typeof reason === "string" ? reason : "no reason given";
  const shown = text === "" ? "no reason given" : text;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}
