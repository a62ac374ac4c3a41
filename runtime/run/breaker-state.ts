import type { BreakerOptions } from "../options/options.js";
import { monotonicMs } from "./clock.js";

interface ToolBreaker {
  /** Tool failures in the current streak (runtime-wide: distinct runs in it). */
  failures: number;
  /** Runtime-wide only: the runs that failed in the current streak. */
  voters: Set<string> | undefined;
  /** When it opened (monotonicMs()), or null while closed. */
  openedAt: number | null;
  /** A half-open trial call is running; everyone else is still refused. */
  trialRunning: boolean;
}

export type BreakerVerdict =
  | { readonly pass: true; readonly trial: boolean }
  | { readonly pass: false; readonly retryInMs: number };

/**
 * Per-tool circuit breakers at one scope. Closed: count the failure streak; at the threshold, open.
 * Open: refuse until the cool-down has passed, then let exactly one trial call through (half-open); its
 * success closes the breaker, its failure opens it for another cool-down, and an outcome that says
 * nothing about the tool's health (refused input, say) leaves it half-open for the next call.
 *
 * Two scopes use it (docs/decisions.md, "The breaker's scope"): each run has its own, counting that
 * run's consecutive failures; the runtime has one shared by every run, whose streak counts distinct
 * runs (`byRun`), so that no single conversation can open a tool's breaker for everyone, while a tool
 * that fails for threshold different runs in a row is refused to all of them.
 */
export class Breakers {
  private readonly byTool = new Map<string, ToolBreaker>();

  constructor(
    private readonly options: Required<BreakerOptions>,
    private readonly byRun: boolean,
  ) {}

  check(name: string): BreakerVerdict {
    const state = this.byTool.get(name);
    if (state === undefined || state.openedAt === null) return CLOSED;
    const waited = monotonicMs() - state.openedAt;
    if (waited < this.options.cooldownMs)
      return { pass: false, retryInMs: Math.ceil(this.options.cooldownMs - waited) };
    if (state.trialRunning) return { pass: false, retryInMs: 0 };
    state.trialRunning = true;
    return TRIAL;
  }

  /** Records a finished call that passed check(): "success", "failure" (the tool misbehaved) or "neutral"; `run` is its run's id. */
  record(name: string, trial: boolean, verdict: "success" | "failure" | "neutral", run: string): void {
    let state = this.byTool.get(name);
    if (state === undefined) {
      if (verdict !== "failure") return;
      state = { failures: 0, voters: undefined, openedAt: null, trialRunning: false };
      this.byTool.set(name, state);
    }
    if (trial) state.trialRunning = false;
    if (verdict === "success") {
      state.failures = 0;
      state.voters = undefined;
      state.openedAt = null;
    } else if (verdict === "failure") {
      if (this.byRun) {
        state.voters ??= new Set();
        state.voters.add(run);
        state.failures = state.voters.size;
      } else state.failures += 1;
      if (trial || state.failures >= this.options.failureThreshold) state.openedAt = monotonicMs();
    }
  }
}

const CLOSED: BreakerVerdict = Object.freeze({ pass: true, trial: false });
const TRIAL: BreakerVerdict = Object.freeze({ pass: true, trial: true });
