import { randomBytes, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { RecoveryStore } from "../results/store.js";
import { toRecordedCall, type CallRow } from "./call-row.js";
import { JournalError, journalError } from "./journal-error.js";
import { migrate } from "./postgres-migrations.js";
import type { PostgresSetting } from "./postgres-setting.js";
import { loadPg, newPool, type PgPool } from "./pg-driver.js";
import type { Completion, ExpireOptions, Intent, Journal, RecordedRun, RunSummary } from "./types.js";

const CALL_COLUMNS = `run_id, key, parent_key, tool, args_sha256, occurrence, call_id, parent_id, lock_integrity, effect, idempotency_key,
  intent_at, outcome, result_sha256, plan, dispatched::int4 AS dispatched, run_elapsed_ms, completed_at`;

/**
 * The journal for many hosts: PostgreSQL (pg 8), one statement (one round trip, one transaction) per
 * record. Each run is driven by one host at a time: openRun takes the run's **lease** (a new epoch),
 * every write carries that epoch and is refused once another host has taken the run over (fencing),
 * and a host renews its leases while it lives. A host that stops answering (crashed, paused, cut
 * off) loses its runs after the lease time; whatever it tries to write after a takeover is refused,
 * so it records nothing. Times that decide leases are the database's clock, never a host's.
 */
export class PostgresJournal implements Journal {
  readonly backend = "postgres";
  readonly results: RecoveryStore;
  /** This journal's identity as a lease holder: host, process and a random part (two journals in one process are two holders). */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** The lease epoch this journal holds per run (set by openRun; every write of the run carries it). */
  private readonly epochs = new Map<string, number>();
  private readonly s: string;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly pool: PgPool,
    private readonly setting: PostgresSetting,
  ) {
    this.s = `"${setting.schema}"`;
    this.results = this.resultStore();
    // Renew well before expiry: a third of the lease leaves two chances for a slow round trip.
    this.heartbeat = setInterval(() => void this.renew(), Math.max(250, Math.floor(setting.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Connects, creates or migrates the schema (refusing a newer one) and returns the journal. */
  static async open(setting: PostgresSetting, poolSize = 4): Promise<PostgresJournal> {
    const pool = newPool(loadPg(), setting.url, poolSize);
    try {
      await migrate(pool, setting.schema);
      return new PostgresJournal(pool, setting);
    } catch (thrown) {
      await pool.end().catch(() => undefined);
      throw journalError(
        `open the postgres journal (connection string from ${setting.urlEnv}, schema ${setting.schema})`,
        thrown,
      );
    }
  }

  private async query<R>(what: string, text: string, values: readonly unknown[]): Promise<R[]> {
    if (this.closed) throw new JournalError("CLOSED", `the journal is closed, so it could not ${what}`);
    try {
      return (await this.pool.query<R>(text.replaceAll("{s}", this.s), values)).rows;
    } catch (thrown) {
      throw journalError(what, thrown);
    }
  }

  private epochOf(runId: string, what: string): number {
    const epoch = this.epochs.get(runId);
    if (epoch === undefined)
      throw new JournalError(
        "NO_LEASE",
        `the journal could not ${what}: this host holds no lease on run ${runId} (openRun takes it); start the run on this host first`,
      );
    return epoch;
  }

  /** Why a fenced write was refused: the run was taken over, or is gone. */
  private async fenced(runId: string, epoch: number, what: string): Promise<JournalError> {
    const [row] = await this.query<{ lease_epoch: number; lease_owner: string | null }>(
      what,
      "SELECT lease_epoch, lease_owner FROM {s}.runs WHERE run_id = $1",
      [runId],
    );
    this.epochs.delete(runId);
    if (row === undefined)
      return new JournalError(
        "NOT_FOUND",
        `the journal could not ${what}: run ${runId} is no longer in the journal (expired?)`,
      );
    return new JournalError(
      "FENCED",
      `the journal refused to ${what}: run ${runId} was taken over by another host (${row.lease_owner ?? "released since"}, lease epoch ${row.lease_epoch}; this host held epoch ${epoch}), most likely because this host did not renew its lease in time (paused, overloaded or cut off). This host records nothing more for the run; the host that took it over drives it`,
    );
  }

  /**
   * Takes the run's lease (a new epoch) and returns its record. A run another host holds is waited
   * for, at most one lease time: a crashed host's lease expires within it and is taken over; a host
   * that keeps renewing is alive and driving the run, and the run is refused (LEASED).
   */
  async openRun(runId: string, at: number): Promise<RecordedRun> {
    const until = Date.now() + this.setting.leaseMs;
    for (;;) {
      const [taken] = await this.query<{ lease_epoch: number }>(
        "open the run",
        `
        INSERT INTO {s}.runs AS r (run_id, created_at, updated_at, lease_owner, lease_epoch, lease_expires_at)
        VALUES ($1, $2, $2, $3, 1, clock_timestamp() + make_interval(secs => $4::float8 / 1000))
        ON CONFLICT (run_id) DO UPDATE SET lease_owner = EXCLUDED.lease_owner, lease_epoch = r.lease_epoch + 1, lease_expires_at = EXCLUDED.lease_expires_at
        WHERE r.lease_owner IS NULL OR r.lease_owner = EXCLUDED.lease_owner OR r.lease_expires_at < clock_timestamp()
        RETURNING lease_epoch`,
        [runId, at, this.owner, this.setting.leaseMs],
      );
      if (taken !== undefined) {
        this.epochs.set(runId, taken.lease_epoch);
        return (await this.readRun(runId))!;
      }
      // The last try comes after the deadline, so a lease that expired within the wait is always taken.
      if (Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, this.setting.leaseMs / 4)));
    }
    const [held] = await this.query<{ lease_owner: string; seconds: number }>(
      "open the run",
      "SELECT lease_owner, GREATEST(0, EXTRACT(EPOCH FROM lease_expires_at - clock_timestamp()))::float8 AS seconds FROM {s}.runs WHERE run_id = $1",
      [runId],
    );
    throw new JournalError(
      "LEASED",
      `run ${runId} is being driven by another host (${held?.lease_owner ?? "unknown"}), which kept renewing its lease for the ${this.setting.leaseMs / 1000} s this host waited: one host drives a run at a time. Start it here after that host finishes it (run.finish() or runtime.close() releases it) or stops (a crashed host loses it after ${this.setting.leaseMs / 1000} s)`,
    );
  }

  async recordIntent(intent: Intent): Promise<void> {
    const what = "record the call's intent";
    const epoch = this.epochOf(intent.runId, what);
    const [row] = await this.query<{ held: number; written: number }>(
      what,
      `
      WITH fence AS (${FENCE} RETURNING next_seq),
      written AS (
        INSERT INTO {s}.calls (run_id, key, seq, parent_key, tool, args_sha256, occurrence, call_id, parent_id, lock_integrity, effect, idempotency_key, intent_at)
        SELECT $1, $6, fence.next_seq, $7, $8, $9, $10, $11, $12, $13, $14, $15, $3 FROM fence
        ON CONFLICT (run_id, key) DO UPDATE SET call_id = EXCLUDED.call_id, parent_id = EXCLUDED.parent_id, lock_integrity = EXCLUDED.lock_integrity, intent_at = EXCLUDED.intent_at
        WHERE {s}.calls.outcome IS NULL
        RETURNING 1)
      SELECT (SELECT COUNT(*) FROM fence)::int4 AS held, (SELECT COUNT(*) FROM written)::int4 AS written`,
      [
        intent.runId,
        epoch,
        intent.at,
        ...this.leaseParams(),
        intent.key,
        intent.parentKey,
        intent.tool,
        intent.argsSha256,
        intent.occurrence,
        intent.callId,
        intent.parentId,
        intent.lockIntegrity,
        intent.effect,
        intent.idempotencyKey,
      ],
    );
    if (row!.held === 0) throw await this.fenced(intent.runId, epoch, what);
    if (row!.written === 0)
      throw new JournalError(
        "CONFLICT",
        `call ${intent.key} of run ${intent.runId} already has a completion (another process resumed the same run); resume a run in one process at a time`,
      );
  }

  async recordCompletion(completion: Completion): Promise<void> {
    const what = "record the call's completion";
    const epoch = this.epochOf(completion.runId, what);
    const [row] = await this.query<{ held: number; written: number }>(
      what,
      `
      WITH fence AS (${FENCE} RETURNING 1),
      written AS (
        UPDATE {s}.calls SET outcome = $7, result_sha256 = $8, plan = $9, dispatched = $10, run_elapsed_ms = $11, completed_at = $3
        WHERE run_id = $1 AND key = $6 AND outcome IS NULL AND EXISTS (SELECT 1 FROM fence)
        RETURNING 1)
      SELECT (SELECT COUNT(*) FROM fence)::int4 AS held, (SELECT COUNT(*) FROM written)::int4 AS written`,
      [
        completion.runId,
        epoch,
        completion.at,
        ...this.leaseParams(),
        completion.key,
        completion.outcome,
        completion.resultSha256,
        completion.plan,
        completion.dispatched,
        completion.runElapsedMs,
      ],
    );
    if (row!.held === 0) throw await this.fenced(completion.runId, epoch, what);
    if (row!.written === 0)
      throw new JournalError(
        "CONFLICT",
        `call ${completion.key} of run ${completion.runId} has no open intent (another process completed it); resume a run in one process at a time`,
      );
  }

  async recordRefused(intent: Intent, completion: Completion): Promise<void> {
    const what = "record the refused call";
    const epoch = this.epochOf(intent.runId, what);
    const [row] = await this.query<{ held: number; written: number }>(
      what,
      `
      WITH fence AS (${FENCE} RETURNING next_seq),
      written AS (
        INSERT INTO {s}.calls (run_id, key, seq, parent_key, tool, args_sha256, occurrence, call_id, parent_id, lock_integrity, effect, idempotency_key, intent_at,
          outcome, result_sha256, plan, dispatched, run_elapsed_ms, completed_at)
        SELECT $1, $6, fence.next_seq, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $3 FROM fence
        ON CONFLICT (run_id, key) DO UPDATE SET call_id = EXCLUDED.call_id, parent_id = EXCLUDED.parent_id, lock_integrity = EXCLUDED.lock_integrity, intent_at = EXCLUDED.intent_at,
          outcome = EXCLUDED.outcome, result_sha256 = EXCLUDED.result_sha256, plan = EXCLUDED.plan, dispatched = EXCLUDED.dispatched, run_elapsed_ms = EXCLUDED.run_elapsed_ms, completed_at = EXCLUDED.completed_at
        WHERE {s}.calls.outcome IS NULL
        RETURNING 1)
      SELECT (SELECT COUNT(*) FROM fence)::int4 AS held, (SELECT COUNT(*) FROM written)::int4 AS written`,
      [
        intent.runId,
        epoch,
        completion.at,
        ...this.leaseParams(),
        intent.key,
        intent.parentKey,
        intent.tool,
        intent.argsSha256,
        intent.occurrence,
        intent.callId,
        intent.parentId,
        intent.lockIntegrity,
        intent.effect,
        intent.idempotencyKey,
        intent.at,
        completion.outcome,
        completion.resultSha256,
        completion.plan,
        completion.dispatched,
        completion.runElapsedMs,
      ],
    );
    if (row!.held === 0) throw await this.fenced(intent.runId, epoch, what);
    if (row!.written === 0)
      throw new JournalError(
        "CONFLICT",
        `call ${intent.key} of run ${intent.runId} is already complete; resume a run in one process at a time`,
      );
  }

  /** $4 and $5 of FENCE: this holder and the lease time. */
  private leaseParams(): [string, number] {
    return [this.owner, this.setting.leaseMs];
  }

  async readRun(runId: string): Promise<RecordedRun | null> {
    const [run] = await this.query<{ run_id: string; created_at: number; finished_at: number | null }>(
      "read the run",
      "SELECT run_id, created_at, finished_at FROM {s}.runs WHERE run_id = $1",
      [runId],
    );
    if (run === undefined) return null;
    const calls = await this.query<CallRow>(
      "read the run",
      `SELECT ${CALL_COLUMNS} FROM {s}.calls WHERE run_id = $1 ORDER BY seq`,
      [runId],
    );
    return {
      runId: run.run_id,
      createdAt: run.created_at,
      finishedAt: run.finished_at,
      calls: calls.map(toRecordedCall),
    };
  }

  async listRuns(): Promise<readonly RunSummary[]> {
    const rows = await this.query<{
      run_id: string;
      created_at: number;
      updated_at: number;
      finished_at: number | null;
      calls: number;
      in_doubt: number;
      locks: string | null;
    }>(
      "list the runs",
      `
      SELECT r.run_id, r.created_at, r.updated_at, r.finished_at,
        (SELECT COUNT(*) FROM {s}.calls c WHERE c.run_id = r.run_id)::int4 AS calls,
        (SELECT COUNT(*) FROM {s}.calls c WHERE c.run_id = r.run_id AND c.outcome IS NULL)::int4 AS in_doubt,
        (SELECT string_agg(DISTINCT COALESCE(c.lock_integrity, '(none)'), ',') FROM {s}.calls c WHERE c.run_id = r.run_id) AS locks
      FROM {s}.runs r ORDER BY r.created_at, r.run_id`,
      [],
    );
    return rows.map((r) => ({
      runId: r.run_id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      finishedAt: r.finished_at,
      calls: r.calls,
      inDoubt: r.in_doubt,
      locks: r.locks === null ? [] : r.locks.split(",").sort(),
    }));
  }

  /** Marks the run finished and releases its lease, so another host may take it at once. */
  async finishRun(runId: string, at: number): Promise<void> {
    const what = "mark the run finished";
    const epoch = this.epochOf(runId, what);
    const rows = await this.query(
      what,
      "UPDATE {s}.runs SET finished_at = $2, updated_at = $2, lease_owner = NULL, lease_expires_at = NULL WHERE run_id = $1 AND lease_epoch = $3 RETURNING 1",
      [runId, at, epoch],
    );
    if (rows.length === 0) throw await this.fenced(runId, epoch, what);
  }

  /** Removes what the options say, except runs a host holds a live lease on (they are being driven). */
  async expire(options: ExpireOptions): Promise<readonly string[]> {
    if (this.closed) throw new JournalError("CLOSED", "the journal is closed, so it could not expire runs");
    const client = await this.pool.connect().catch((thrown: unknown) => {
      throw journalError("expire runs", thrown);
    });
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ run_id: string }>(
        `
        DELETE FROM {s}.runs WHERE ((finished_at IS NOT NULL AND finished_at < $1) OR ($2 AND updated_at < $1))
          AND (lease_owner IS NULL OR lease_expires_at < clock_timestamp())
        RETURNING run_id`.replaceAll("{s}", this.s),
        [options.finishedBefore, options.includeUnfinished === true],
      );
      const ids = rows.map((r) => r.run_id).sort();
      await client.query(`DELETE FROM ${this.s}.calls WHERE run_id = ANY($1::text[])`, [ids]);
      // Exact results no remaining call refers to go with them (results are shared by hash across runs).
      await client.query(
        `DELETE FROM ${this.s}.results r WHERE NOT EXISTS (SELECT 1 FROM ${this.s}.calls c WHERE c.result_sha256 = r.sha256)`,
      );
      await client.query("COMMIT");
      return ids;
    } catch (thrown) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw journalError("expire runs", thrown);
    } finally {
      client.release();
    }
  }

  private resultStore(): RecoveryStore {
    let key: Uint8Array | undefined;
    return {
      put: async (sha256, bytes) => {
        await this.query(
          "store the exact result",
          "INSERT INTO {s}.results (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING",
          [sha256, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
        );
      },
      get: async (sha256) => {
        const [row] = await this.query<{ bytes: Buffer }>(
          "read the exact result",
          "SELECT bytes FROM {s}.results WHERE sha256 = $1",
          [sha256],
        );
        return row === undefined ? null : new Uint8Array(row.bytes);
      },
      key: async () => {
        if (key !== undefined) return key;
        // Created once, in the database, so every host (and every resume) signs alike.
        const [row] = await this.query<{ value: Buffer }>(
          "create the result-reference key",
          `
          WITH made AS (INSERT INTO {s}.meta (name, value) VALUES ('result_key', $1) ON CONFLICT (name) DO NOTHING RETURNING value)
          SELECT value FROM made UNION ALL SELECT value FROM {s}.meta WHERE name = 'result_key'`,
          [randomBytes(32)],
        );
        key = new Uint8Array(row!.value);
        return key;
      },
    };
  }

  /**
   * Extends every lease this journal holds that has not run out. One that ran out is left alone: the
   * run may be taken over any moment, and this host learns at its next write whether it was (the
   * fence refuses it) or not (the write takes the lease again).
   */
  private async renew(): Promise<void> {
    if (this.closed || this.epochs.size === 0) return;
    await this.query(
      "renew its leases",
      "UPDATE {s}.runs SET lease_expires_at = clock_timestamp() + make_interval(secs => $2::float8 / 1000) WHERE lease_owner = $1 AND lease_expires_at > clock_timestamp()",
      [this.owner, this.setting.leaseMs],
    )
      // A renewal that fails is tried again at the next beat; if the lease runs out meanwhile, the fence decides.
      .catch(() => undefined);
  }

  /** Releases this journal's leases (another host may take its runs at once) and disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.heartbeat);
    if (this.epochs.size > 0) {
      await this.pool
        .query(`UPDATE ${this.s}.runs SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1`, [
          this.owner,
        ])
        .catch(() => undefined);
    }
    this.closed = true;
    this.epochs.clear();
    await this.pool.end().catch(() => undefined);
  }
}

/**
 * The fence every write of a run starts with: the run's row, only while this host's epoch is the
 * current one, renewing the lease. A takeover raises the epoch, so a stale writer updates no row and
 * writes nothing; the row lock orders a write and a takeover. $1 run, $2 epoch, $3 time, $4 owner, $5 lease ms.
 */
const FENCE = `UPDATE {s}.runs SET updated_at = $3, next_seq = next_seq + 1, lease_owner = $4,
  lease_expires_at = clock_timestamp() + make_interval(secs => $5::float8 / 1000)
  WHERE run_id = $1 AND lease_epoch = $2`;
