import { JournalError } from "./journal-error.js";
import type { PgPool } from "./pg-driver.js";

/**
 * The journal's schema, as the steps that build it: a database is brought to the last version by
 * applying the steps it lacks, in order, each once. A step is never edited after it shipped: a
 * change is a new step. `{s}` is the schema (a validated plain name, quoted).
 */
export const MIGRATIONS: ReadonlyArray<{ readonly version: number; readonly what: string; readonly sql: string }> = [
  {
    version: 1,
    what: "runs, calls, stored results and the result-reference key",
    sql: `
CREATE TABLE {s}.meta (name text PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE {s}.runs (
  run_id text PRIMARY KEY, created_at int8 NOT NULL, updated_at int8 NOT NULL, finished_at int8
);
CREATE TABLE {s}.calls (
  run_id text NOT NULL, key text NOT NULL, seq int8 NOT NULL,
  parent_key text, tool text NOT NULL, args_sha256 text NOT NULL, occurrence int4 NOT NULL,
  call_id text NOT NULL, parent_id text, lock_integrity text, effect text NOT NULL, idempotency_key text,
  intent_at int8 NOT NULL,
  outcome text, result_sha256 text, plan text, dispatched boolean, run_elapsed_ms float8, completed_at int8,
  PRIMARY KEY (run_id, key)
);
CREATE INDEX calls_by_seq ON {s}.calls (run_id, seq);
CREATE INDEX calls_by_result ON {s}.calls (result_sha256);
CREATE TABLE {s}.results (sha256 text PRIMARY KEY, bytes bytea NOT NULL);`,
  },
  {
    version: 2,
    what: "a lease per run (owner, epoch, expiry) and the run's own call sequence",
    sql: `
ALTER TABLE {s}.runs ADD COLUMN lease_owner text, ADD COLUMN lease_epoch int8 NOT NULL DEFAULT 0,
  ADD COLUMN lease_expires_at timestamptz, ADD COLUMN next_seq int8 NOT NULL DEFAULT 0;
UPDATE {s}.runs r SET next_seq = COALESCE((SELECT MAX(seq) FROM {s}.calls c WHERE c.run_id = r.run_id), 0);`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

// One key for every process migrating any cave schema in this database: migrations are rare and short.
const MIGRATION_LOCK = 0x63617665;

/**
 * Creates the schema or brings it to SCHEMA_VERSION, in one transaction under an advisory lock (two
 * hosts starting together migrate once). A database already past this code's version is refused:
 * an older cave must not write into a schema it does not know.
 */
export async function migrate(pool: PgPool, schema: string): Promise<{ from: number; to: number }> {
  const s = `"${schema}"`;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.migrations (version int4 PRIMARY KEY, what text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT MAX(version) AS version FROM ${s}.migrations`,
    );
    const from = rows[0]?.version ?? 0;
    if (from > SCHEMA_VERSION) {
      throw new JournalError(
        "SCHEMA",
        `the journal's schema ${schema} is at version ${from}, newer than this cave knows (${SCHEMA_VERSION}): a newer cave migrated it. Upgrade cave on this host to the version the others run; an older cave never writes into a newer schema`,
      );
    }
    for (const step of MIGRATIONS) {
      if (step.version <= from) continue;
      await client.query(step.sql.replaceAll("{s}", s));
      await client.query(`INSERT INTO ${s}.migrations (version, what) VALUES ($1, $2)`, [step.version, step.what]);
    }
    await client.query("COMMIT");
    return { from, to: SCHEMA_VERSION };
  } catch (thrown) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw thrown;
  } finally {
    client.release();
  }
}
