import { randomUUID } from "node:crypto";
import type { RunJournal } from "./journal/run-journal.js";
import type { BudgetOptions } from "./options.js";

/** Per-run state: the budget used so far and the calls the repeat guard remembers. */
export class RunState {
  readonly id: string;
  /** performance.now() at the start; a resumed run moves it back by the time it had used (resumeElapsed). */
  startedAt = performance.now();
  /** Calls that passed the budget stage, nested ones included. */
  calls = 0;
  /** Repeat-guard key (tool and argument hash) → callId of the call that holds it. */
  readonly repeats = new Map<string, string>();

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
    this.startedAt = performance.now() - elapsedMs;
  }

  /** Milliseconds since the run started, at `now` (a performance.now() reading). */
  elapsedMs(now = performance.now()): number {
    return now - this.startedAt;
  }
}
