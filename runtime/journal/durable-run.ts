import { randomUUID } from "node:crypto";
import type { CallOutcome, Receipt } from "../../src/contract/outcome.js";
import type { Run, Runtime } from "../create-runtime.js";
import { RuntimeError } from "../errors.js";
import type { CallOptions, RunOptions } from "../options.js";
import { snapshotJson } from "../json-data.js";
import { NO_JSON_SHA256 } from "../pipeline/receipt.js";
import type { EndEntry, FileJournal, StartEntry } from "./file-journal.js";

/** A run whose top-level calls are journaled, and replayed from the journal when the run is resumed. */
export interface DurableRun {
  readonly id: string;
  /** Like Run.call, with replay: see durableRun(). */
  call(name: string, args: unknown, options?: CallOptions): Promise<CallOutcome>;
}

export interface DurableRunOptions {
  /** The run's stable id: the same id after a restart resumes it (a conversation or task id). */
  readonly runId: string;
  readonly run?: RunOptions;
}

/**
 * Makes `runtime` calls durable in `journal`. Each call is keyed by its tool, its argument hash and
 * how many identical calls came before it in the run. Before a call runs, a start entry is synced to
 * disk; after it, its outcome (the validated content for a success). When a run is resumed:
 * - a call the journal shows completed is not run again: its recorded outcome and receipt are returned;
 * - a call the journal shows started but never completed is run again if its tool is read-only, and
 *   otherwise answered EFFECT_UNKNOWN (recorded as its outcome): its effect may already have happened,
 *   and a silent re-run could do it twice.
 */
export function durableRun(runtime: Runtime, journal: FileJournal, options: DurableRunOptions): DurableRun {
  const runId = options?.runId;
  if (typeof runId !== "string" || runId === "") throw new RuntimeError("OPTIONS_INVALID", "durableRun() needs options.runId: a non-empty string that stays the same when the run is resumed");
  const run: Run = runtime.startRun(options.run);
  const started = new Map<string, StartEntry>();
  const ended = new Map<string, EndEntry>();
  for (const entry of journal.entries) {
    if (entry.type === "start" && entry.run === runId) started.set(entry.key, entry);
    if (entry.type === "end" && entry.run === runId) ended.set(entry.key, entry);
  }
  const seen = new Map<string, number>();
  const readOnly = new Map(runtime.toolDeclarations("mcp").map((d) => [d.name, d.annotations.readOnlyHint]));

  async function call(name: string, args: unknown, callOptions?: CallOptions): Promise<CallOutcome> {
    const argsSha256 = argumentHash(args);
    const identity = `${name}\u0000${argsSha256}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    const key = `${identity}\u0000${occurrence}`;

    const done = ended.get(key);
    if (done !== undefined) return replayed(done);
    const start = started.get(key);
    if (start !== undefined && !start.readOnly) return finish(key, unknownEffect(name, argsSha256, callOptions));

    const entry: StartEntry = { type: "start", run: runId, key, tool: name, argsSha256, readOnly: readOnly.get(name) ?? false };
    await journal.append(entry);
    started.set(key, entry);
    return finish(key, await run.call(name, args, callOptions));
  }

  async function finish(key: string, outcome: CallOutcome): Promise<CallOutcome> {
    const entry: EndEntry = outcome.ok
      ? { type: "end", run: runId, key, receipt: outcome.receipt, content: outcome.content }
      : { type: "end", run: runId, key, receipt: outcome.receipt, error: outcome.error };
    await journal.append(entry);
    ended.set(key, entry);
    return outcome;
  }

  function unknownEffect(name: string, argsSha256: string, callOptions: CallOptions | undefined): CallOutcome {
    const receipt: Receipt = Object.freeze({
      callId: randomUUID(),
      parentId: null,
      runId: run.id,
      correlationId: callOptions?.correlationId ?? null,
      tool: name,
      lockIntegrity: runtime.lockIntegrity,
      argsSha256,
      resultSha256: null,
      outcome: "EFFECT_UNKNOWN",
      effectUnknown: true,
      durationMs: 0,
      // Not run: no tool code ran under anything.
      isolation: null,
    });
    const message = `tool ${JSON.stringify(name)} was called with these arguments in run ${runId} before, and the journal shows it started but never finished (the host stopped mid-call); it is not read-only, so it was not run again: its effect may already have happened. Check the system it acts on, then start a new run or call it with different arguments`;
    return { ok: false, error: { code: "EFFECT_UNKNOWN", message }, receipt };
  }

  return Object.freeze({ id: runId, call });
}

function replayed(entry: EndEntry): CallOutcome {
  return entry.error === undefined ? { ok: true, content: entry.content, receipt: entry.receipt } : { ok: false, error: entry.error, receipt: entry.receipt };
}

/** The canonical hash of the arguments, as receipts carry it (NO_JSON_SHA256 for values with no JSON form). */
function argumentHash(args: unknown): string {
  const snapshot = snapshotJson(args, Number.MAX_SAFE_INTEGER);
  return snapshot.ok ? snapshot.sha256 : NO_JSON_SHA256;
}
