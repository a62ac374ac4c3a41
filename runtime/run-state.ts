import { randomUUID } from "node:crypto";
import type { Breakers } from "./breaker-state.js";
import type { BudgetOptions } from "./options.js";

/** The call that holds a repeat-guard key, and whether its receipt is in the sink yet. */
export interface RepeatHolder {
  readonly callId: string;
  /** "running" until the receipt is recorded ("written"), or the sink refused it ("lost"). */
  receipt: "running" | "written" | "lost";
}

/** Per-run state: the budget used so far and the calls the repeat guard remembers. */
export class RunState {
  /** The name startRun({ id }) gave the run, or a random UUID. */
  readonly id: string;
  readonly startedAt = performance.now();
  /** Calls that passed the budget stage, nested ones included. */
  calls = 0;
  /** Repeat-guard key (tool and argument hash) → the call that holds it. */
  readonly repeats = new Map<string, RepeatHolder>();
  /** This run's own circuit breakers, made at its first tool failure (see runtime/pipeline/breaker.ts). */
  breakers: Breakers | undefined = undefined;

  constructor(readonly budget: Required<BudgetOptions>, id?: string) {
    this.id = id ?? randomUUID();
  }

  /** Milliseconds since the run started, at `now` (a performance.now() reading). */
  elapsedMs(now = performance.now()): number {
    return now - this.startedAt;
  }
}
