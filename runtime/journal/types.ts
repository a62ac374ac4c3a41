import type { CallError, Receipt } from "../../src/contract/outcome.js";
import type { RecoveryStore } from "../results/store.js";

/**
 * A call's durable identity within its run: its parent's key (null for a top-level call), the tool,
 * the argument hash and how many identical calls (same parent, tool and arguments) came before it.
 * The same agent code resumed after a crash makes the same calls in the same order, so each gets the
 * same key it had before; call ids are new in every process and never used for matching.
 */
export interface CallKey {
  readonly parentKey: string | null;
  readonly tool: string;
  readonly argsSha256: string;
  readonly occurrence: number;
}

/** What is committed before a call is dispatched (or, for a call refused before dispatch, with its completion). */
export interface Intent extends CallKey {
  readonly runId: string;
  /** sha256 of the canonical CallKey: one row per key and run. */
  readonly key: string;
  readonly callId: string;
  readonly parentId: string | null;
  readonly lockIntegrity: string | null;
  readonly effect: "read" | "idempotent" | "write" | "external";
  /** For idempotent tools: the key the tool receives in its context, the same when the call is re-run. */
  readonly idempotencyKey: string | null;
  /** Wall-clock milliseconds since the epoch (retention and `cave runs` only; never used for matching). */
  readonly at: number;
}

/** How the call ended: committed before the outcome is returned to anyone. */
export interface Completion {
  readonly runId: string;
  readonly key: string;
  /** The outcome exactly as returned: JSON.stringify of { ok, content | error, receipt }. */
  readonly outcome: string;
  readonly resultSha256: string | null;
  /** The result plan that was applied ("inline", "page", ...); null when the call did not succeed. */
  readonly plan: string | null;
  /** The call reached its dispatcher (the repeat guard counts it after a resume). */
  readonly dispatched: boolean;
  /** Milliseconds of the run's wall-time budget used when the call ended (restored on resume). */
  readonly runElapsedMs: number;
  readonly at: number;
}

/** One call as the journal holds it: an intent, and its completion unless the host stopped first. */
export interface RecordedCall {
  readonly intent: Intent;
  readonly completion: Completion | null;
}

export interface RecordedRun {
  readonly runId: string;
  readonly createdAt: number;
  /** Set by finishRun(); a finished run may be expired. */
  readonly finishedAt: number | null;
  /** In the order the intents were committed. */
  readonly calls: readonly RecordedCall[];
}

export interface RunSummary {
  readonly runId: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
  readonly calls: number;
  /** Intents without a completion: calls whose effect is in doubt if their tool is not read-only. */
  readonly inDoubt: number;
  /** The lock integrities the run's calls were recorded under, sorted. */
  readonly locks: readonly string[];
}

export interface ExpireOptions {
  /** Runs finished (finishRun) before this wall-clock time (ms since the epoch) are removed. */
  readonly finishedBefore: number;
  /** Also remove unfinished runs whose last record is older than finishedBefore (abandoned runs). */
  readonly includeUnfinished?: boolean;
}

/**
 * Where durable runs are recorded. Every method is asynchronous, so that a remote backend
 * (PostgreSQL) implements the same interface; a method that cannot record rejects with a
 * JournalError and leaves what was recorded before intact. Implementations: SQLite (the embedded
 * default, runtime/journal/sqlite-journal.ts) and a JSON-lines file (runtime/journal/file-journal.ts).
 */
export interface Journal {
  /** What the setting named: "sqlite", "file", ... (shown by `cave runs`). */
  readonly backend: string;
  /** Creates the run if it is new and returns everything recorded for it. */
  openRun(runId: string, at: number): Promise<RecordedRun>;
  /** Commits an intent (before dispatch). A re-run of an intent without completion replaces its call id. */
  recordIntent(intent: Intent): Promise<void>;
  /** Commits the completion of an intent already recorded. */
  recordCompletion(completion: Completion): Promise<void>;
  /** Commits an intent and its completion together (a call refused before dispatch). */
  recordRefused(intent: Intent, completion: Completion): Promise<void>;
  /** The run, or null when the journal holds no run with that id. */
  readRun(runId: string): Promise<RecordedRun | null>;
  listRuns(): Promise<readonly RunSummary[]>;
  /** Marks the run finished (retention may then expire it). */
  finishRun(runId: string, at: number): Promise<void>;
  /** Removes runs (and their calls) as the options say; resolves with the ids removed. */
  expire(options: ExpireOptions): Promise<readonly string[]>;
  /**
   * Where result plans keep exact results (cave_page / cave_recover) and the key that signs their
   * references, in the same backend, so references in a replayed outcome still resolve.
   */
  readonly results: RecoveryStore;
  close(): Promise<void>;
}

/** A recorded call, as the outcome it was returned as. */
export function recordedOutcome(completion: Completion): {
  ok: boolean;
  content?: unknown;
  error?: CallError;
  receipt: Receipt;
} {
  return JSON.parse(completion.outcome) as { ok: boolean; content?: unknown; error?: CallError; receipt: Receipt };
}
