import { sha256 } from "../../src/contract/hash.js";
import type { RunState } from "../run/run-state.js";
import { JournalError } from "./journal-error.js";
import type { CallKey, Completion, Intent, Journal, RecordedCall } from "./types.js";

/** What a resumed run does with calls recorded under another lock (startRun option `lockChange`). */
export type LockChange = "refuse" | "replay";

/** Why a journaled run cannot take calls: every call answers this outcome (nothing is recorded). */
export interface RunRefusal {
  readonly code: "JOURNAL_FAILED" | "JOURNAL_LOCK_CHANGED";
  readonly message: string;
}

/**
 * One run's view of the journal: what was recorded before this process (loaded once, before the
 * run's first call goes anywhere), the occurrence counters that give each call its key, and the
 * run's budget and repeat guard rebuilt from the record.
 */
export class RunJournal {
  /** Recorded calls by key; a call completed in this process is added as it completes. */
  private readonly recorded = new Map<string, RecordedCall>();
  private readonly occurrences = new Map<string, number>();
  private refusal: RunRefusal | undefined;
  private loading: Promise<void> | undefined;
  loaded = false;

  constructor(
    readonly journal: Journal,
    private readonly run: RunState,
    private readonly lockIntegrity: string | null,
    private readonly lockChange: LockChange,
  ) {}

  /**
   * Loads the record (once; startRun starts it at once, the runtime's default run on its first call,
   * so a runtime that is never called records nothing). Never rejects: a failure becomes the refusal.
   */
  ready(): Promise<void> {
    this.loading ??= this.load().then(
      () => {
        this.loaded = true;
      },
      (thrown: unknown) => {
        this.loaded = true;
        const detail = thrown instanceof JournalError ? thrown.message : String(thrown);
        this.refusal = {
          code: "JOURNAL_FAILED",
          message: `run ${this.run.id} cannot take calls: ${detail}; fix the journal (see cave runs), then start the run again`,
        };
      },
    );
    return this.loading;
  }

  get runId(): string {
    return this.run.id;
  }

  /** Set when the run cannot take calls (the journal could not be read, or the lock changed). */
  get refused(): RunRefusal | undefined {
    return this.refusal;
  }

  private async load(): Promise<void> {
    const record = await this.journal.openRun(this.run.id, Date.now());
    const others = [...new Set(record.calls.map((c) => c.intent.lockIntegrity))].filter(
      (lock) => lock !== this.lockIntegrity,
    );
    if (others.length > 0 && this.lockChange === "refuse") {
      this.refusal = {
        code: "JOURNAL_LOCK_CHANGED",
        message: `run ${this.run.id} was recorded under lock ${others.map(String).join(", ")} and this runtime runs lock ${String(this.lockIntegrity)}; its recorded outcomes may not be what this lock would give. Resume it with the lock it was recorded under, or pass startRun({ id, lockChange: "replay" }) to replay what was recorded (each replayed receipt names its lock), or start a new run`,
      };
      return;
    }
    let elapsed = 0;
    for (const call of record.calls) {
      this.recorded.set(call.intent.key, call);
      // Every recorded call passed the budget stage; a call in doubt may have been dispatched.
      this.run.calls += 1;
      const dispatched = call.completion === null ? true : call.completion.dispatched;
      if (dispatched) this.run.repeats.addHashed(call.intent.tool, call.intent.argsSha256, call.intent.callId);
      if (call.completion !== null && call.completion.runElapsedMs > elapsed) elapsed = call.completion.runElapsedMs;
    }
    // The wall-time budget counts the time the run was working, not the time the host was down.
    this.run.resumeElapsed(elapsed);
  }

  /** The call's key: parent key, tool, argument hash and its occurrence among identical calls under that parent. */
  keyFor(parentKey: string | null, tool: string, argsSha256: string): CallKey & { readonly key: string } {
    const identity = `${parentKey ?? ""}\u0000${tool}\u0000${argsSha256}`;
    const occurrence = this.occurrences.get(identity) ?? 0;
    this.occurrences.set(identity, occurrence + 1);
    const key = sha256(`${identity}\u0000${occurrence}`).slice("sha256-".length, "sha256-".length + 32);
    return { parentKey, tool, argsSha256, occurrence, key };
  }

  /** The recorded call with this key, if any. */
  find(key: string): RecordedCall | undefined {
    return this.recorded.get(key);
  }

  /** The key an idempotent tool receives: the same for every attempt and every resume of this call. */
  idempotencyKey(key: string): string {
    return sha256(`${this.run.id}\u0000${key}`).slice("sha256-".length, "sha256-".length + 32);
  }

  async recordIntent(intent: Intent): Promise<void> {
    await this.journal.recordIntent(intent);
    this.recorded.set(intent.key, { intent, completion: null });
  }

  async recordCompletion(intent: Intent, completion: Completion, intentRecorded: boolean): Promise<void> {
    if (intentRecorded) await this.journal.recordCompletion(completion);
    else await this.journal.recordRefused(intent, completion);
    this.recorded.set(intent.key, { intent, completion });
  }
}
