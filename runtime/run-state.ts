import { randomUUID } from "node:crypto";
import type { BudgetOptions } from "./options.js";

/** Per-run state: the budget used so far and the calls the repeat guard remembers. */
export class RunState {
  /** The name startRun({ id }) gave the run, or a random UUID. */
  readonly id: string;
  readonly startedAt = performance.now();
  /** Calls that passed the budget stage, nested ones included. */
  calls = 0;
  /** Repeat-guard key (tool and argument hash) → callId of the call that holds it. */
  readonly repeats = new Map<string, string>();

  constructor(readonly budget: Required<BudgetOptions>, id?: string) {
    this.id = id ?? randomUUID();
  }

  /** Milliseconds since the run started, at `now` (a performance.now() reading). */
  elapsedMs(now = performance.now()): number {
    return now - this.startedAt;
  }
}
