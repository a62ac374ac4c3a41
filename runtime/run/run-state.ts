import { randomUUID } from "node:crypto";
import type { Breakers } from "./breaker-state.js";
import type { RunJournal } from "../journal/run-journal.js";
import type { BudgetOptions } from "../options/options.js";
import { monotonicMs } from "./clock.js";
import { RepeatIndex } from "./repeat-index.js";

/** Per-run state: the budget used so far and the calls the repeat guard remembers. */
export class RunState {
  readonly id: string;
  /** monotonicMs() at the start; a resumed run moves it back by the time it had used (resumeElapsed). */
  startedAt = monotonicMs();
  /** Calls that passed the budget stage, nested ones included. */
  calls = 0;
  /** The calls the repeat guard remembers, by tool and canonical arguments. */
  readonly repeats = new RepeatIndex();
  /** This run's own circuit breakers, made at its first tool failure (see runtime/pipeline/breaker.ts). */
  breakers: Breakers | undefined = undefined;

  /** The run's journal, when the runtime has one (set once, right after construction). */
  journal: RunJournal | undefined;

  constructor(
    readonly budget: Required<BudgetOptions>,
    id?: string,
  ) {
    this.id = id ?? randomUUID();
  }

  /** A resumed run: `elapsedMs` of its wall-time budget were used before this process. */
  resumeElapsed(elapsedMs: number): void {
    this.startedAt = monotonicMs() - elapsedMs;
  }

  /** Milliseconds since the run started, at `now` (a monotonicMs() reading). */
  elapsedMs(now = monotonicMs()): number {
    return now - this.startedAt;
  }
}
