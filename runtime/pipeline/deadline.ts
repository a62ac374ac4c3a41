import { CallSignal } from "../run/call-signal.js";
import { DeadlineQueue, type Deadline } from "../run/deadline-queue.js";
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
 * before its deadline (state.frame.cut), when a nested call it makes is refused for the run's budget, and
 * so can the caller's AbortSignal (CANCELLED). In-process code that never yields (a synchronous
 * endless loop) cannot be interrupted by any deadline; only the child-process sandbox can stop it.
 */
export function underDeadline<T extends { readonly ok: true }>(
  state: CallState,
  work: (state: CallState) => T | Failure | Promise<T | Failure>,
): T | Failure | Promise<T | Failure> {
  // The caller's signal (call option `signal`; nested calls follow their parent's instead).
  const external = state.parent === null ? state.options.signal : undefined;
  if (external?.aborted === true) {
    state.abort = new CallSignal();
    return {
      code: "CANCELLED",
      message: `the call of tool "${state.name}" was cancelled by the caller before it started (${reasonText(external.reason)}); nothing ran`,
    };
  }
  const frame = new Frame<T>(state, external);
  let ended: T | Failure | Promise<T | Failure>;
  try {
    ended = work(state);
  } catch (thrown) {
    frame.done();
    throw thrown;
  }
  return frame.after(ended);
}

/**
 * One call's frame: its deadline (the entry in the shared queue), the budget's cut and the caller's signal, one object
 * per call rather than a closure for each. Work that finishes synchronously (a loaded validator and a tool that
 * returns a value, most in-process calls) is over before any timer could fire, as it always was (a deadline is a
 * timer, and timers run between tasks): it returns its outcome at once, with no promise and no queue entry. Work that
 * goes asynchronous enters the queue then, with the same absolute deadline, counted from the call's start.
 */
class Frame<T> implements Deadline {
  readonly at: number;
  pending = true;
  private readonly cutByBudget: boolean;
  private readonly abort: CallSignal;
  private readonly unfollow: (() => void) | undefined;
  private queued = false;
  /** How stop() ended the call while the work was still synchronous, or where it resolves once the work is asynchronous. */
  private stopped: Failure | undefined;
  private resolveLater: ((end: T | Failure) => void) | undefined;

  constructor(
    private readonly state: CallState,
    private readonly external: AbortSignal | undefined,
  ) {
    const remainingWall = state.run.budget.maxWallMs - state.run.elapsedMs(state.startedAt);
    const timeoutMs = state.tool!.timeoutMs;
    this.cutByBudget = remainingWall < timeoutMs;
    this.at = state.startedAt + Math.max(0, this.cutByBudget ? remainingWall : timeoutMs);
    this.abort = new CallSignal();
    state.abort = this.abort;
    this.unfollow = state.parent === null ? undefined : state.parent.abort!.adopt(this.abort);
    state.frame = this;
    if (external !== undefined) external.addEventListener("abort", this, { once: true });
  }

  /** The work's outcome: at once when it finished synchronously, else a promise settled by it or by stop(). */
  after(ended: T | Failure | Promise<T | Failure>): T | Failure | Promise<T | Failure> {
    if (!(ended instanceof Promise)) {
      if (this.stopped !== undefined) return this.stopped;
      this.done();
      return ended;
    }
    if (this.stopped !== undefined) {
      // Stopped (a nested call refused for the budget) before the work went asynchronous: its late end is discarded.
      ended.then(undefined, () => undefined);
      return this.stopped;
    }
    this.queued = true;
    deadlines.add(this);
    return new Promise<T | Failure>((resolve, reject) => {
      this.resolveLater = resolve;
      ended.then(
        (end) => {
          this.done();
          resolve(end);
        },
        (thrown: unknown) => {
          this.done();
          reject(thrown);
        },
      );
    });
  }

  /** The deadline (DeadlineQueue calls it at `at`). */
  expire(): void {
    const { state } = this;
    this.stop(this.cutByBudget ? "BUDGET_EXCEEDED" : "TIMEOUT", (unknown) =>
      this.cutByBudget
        ? `tool "${state.name}" was stopped when run ${state.run.id} reached its wall-time budget of ${state.run.budget.maxWallMs} ms${unknown}; start a new run or raise budget.maxWallMs`
        : `tool "${state.name}" did not finish within its timeout of ${state.tool!.timeoutMs} ms; its signal was aborted${unknown}. Raise its timeout and rebuild, or make it finish sooner`,
    );
  }

  /** Ends the call now with BUDGET_EXCEEDED, saying why (the budget stage, when a nested call of this one is refused). */
  cut(why: string): void {
    this.stop(
      "BUDGET_EXCEEDED",
      (unknown) => `tool "${this.state.name}" was stopped: ${why}${unknown}; start a new run or raise its budget`,
    );
  }

  /** The caller's signal was aborted (this frame is its listener). */
  handleEvent(): void {
    const external = this.external!;
    this.stop(
      "CANCELLED",
      (unknown) =>
        `the call of tool "${this.state.name}" was cancelled by the caller (${reasonText(external.reason)}); its signal was aborted${unknown}`,
    );
  }

  /** Stops listening: the deadline, the budget's cut, the caller's signal and the parent's. */
  done(): void {
    this.state.frame = undefined;
    if (this.queued) deadlines.settle(this);
    this.unfollow?.();
    if (this.external !== undefined) this.external.removeEventListener("abort", this);
  }

  /** Ends the call now with `code` (the deadline, a stage that stops it early, or the caller): signal aborted, later nested calls refused. */
  private stop(code: "TIMEOUT" | "BUDGET_EXCEEDED" | "CANCELLED", message: (unknown: string) => string): void {
    const { state } = this;
    if (state.settled) return;
    state.settled = true;
    this.done();
    const tool = state.tool!;
    if (state.dispatched && tool.effect !== "read") state.effectUnknown = true;
    const text = message(
      state.effectUnknown ? `; it has effect ${tool.effect} and may have done part of it (effectUnknown)` : "",
    );
    this.abort.abort(new DOMException(text, code === "CANCELLED" ? "AbortError" : "TimeoutError"));
    const failure: Failure = { code, message: text };
    if (this.resolveLater !== undefined) this.resolveLater(failure);
    else this.stopped = failure;
  }
}

/** An abort reason as a message shows it: its message when it has one, cut short. */
function reasonText(reason: unknown): string {
  const text =
    reason instanceof Error ||
    (typeof reason === "object" && reason !== null && typeof (reason as { message?: unknown }).message === "string")
      ? String((reason as { message: string }).message)
      : typeof reason === "string"
        ? reason
        : "no reason given";
  const shown = text === "" ? "no reason given" : text;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}
