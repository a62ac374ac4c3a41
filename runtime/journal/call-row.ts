import type { Intent, RecordedCall } from "./types.js";

/** One call as a SQL backend stores it (SQLite and PostgreSQL select the same columns). */
export interface CallRow {
  run_id: string;
  key: string;
  parent_key: string | null;
  tool: string;
  args_sha256: string;
  occurrence: number;
  call_id: string;
  parent_id: string | null;
  lock_integrity: string | null;
  effect: Intent["effect"];
  idempotency_key: string | null;
  intent_at: number;
  outcome: string | null;
  result_sha256: string | null;
  plan: string | null;
  dispatched: number | null;
  run_elapsed_ms: number | null;
  completed_at: number | null;
}

export function toRecordedCall(row: CallRow): RecordedCall {
  const intent: Intent = {
    runId: row.run_id,
    key: row.key,
    parentKey: row.parent_key,
    tool: row.tool,
    argsSha256: row.args_sha256,
    occurrence: row.occurrence,
    callId: row.call_id,
    parentId: row.parent_id,
    lockIntegrity: row.lock_integrity,
    effect: row.effect,
    idempotencyKey: row.idempotency_key,
    at: row.intent_at,
  };
  const completion =
    row.outcome === null
      ? null
      : {
          runId: row.run_id,
          key: row.key,
          outcome: row.outcome,
          resultSha256: row.result_sha256,
          plan: row.plan,
          dispatched: row.dispatched === 1,
          runElapsedMs: row.run_elapsed_ms ?? 0,
          at: row.completed_at ?? row.intent_at,
        };
  return { intent, completion };
}
