import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { RecoveryStore } from "../results/store.js";
import { toRecordedCall, type CallRow } from "./call-row.js";
import { JournalError, journalError, reasonOf } from "./journal-error.js";
import type { Completion, ExpireOptions, Intent, Journal, RecordedRun, RunSummary } from "./types.js";

/** The schema this code writes; a database with another version is refused, never migrated silently. */
const SCHEMA_VERSION = "1";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS calls (
  run_id TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL,
  parent_key TEXT, tool TEXT NOT NULL, args_sha256 TEXT NOT NULL, occurrence INTEGER NOT NULL,
  call_id TEXT NOT NULL, parent_id TEXT, lock_integrity TEXT, effect TEXT NOT NULL, idempotency_key TEXT,
  intent_at INTEGER NOT NULL,
  outcome TEXT, result_sha256 TEXT, plan TEXT, dispatched INTEGER, run_elapsed_ms REAL, completed_at INTEGER,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS calls_by_seq ON calls (run_id, seq);
CREATE TABLE IF NOT EXISTS results (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL) WITHOUT ROWID;
`;

/** The part of better-sqlite3 12 this file uses (it is an optional peer dependency, loaded on open). */
interface Database {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): void;
  prepare(source: string): Statement;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}
interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
type DatabaseConstructor = new (
  path: string,
  options?: { readonly?: boolean; fileMustExist?: boolean; timeout?: number },
) => Database;

/** Loads better-sqlite3 from the application's node_modules, or says how to install it. */
function loadDriver(): DatabaseConstructor {
  const require = createRequire(`${process.cwd()}/`);
  const fallback = createRequire(import.meta.url);
  for (const req of [require, fallback]) {
    try {
      return req("better-sqlite3") as DatabaseConstructor;
    } catch (thrown) {
      if (reasonOf(thrown) !== "MODULE_NOT_FOUND")
        throw journalError(
          "load better-sqlite3 (installed, but its native module did not load: run `npm rebuild better-sqlite3`, which needs python3, make and a C++ compiler)",
          thrown,
        );
    }
  }
  throw new JournalError(
    "MODULE_NOT_FOUND",
    "the sqlite journal needs the optional peer dependency better-sqlite3 12: run `npm install better-sqlite3@12` (it compiles from source when no prebuilt binary can be downloaded: python3, make and a C++ compiler), or use a file: journal",
  );
}

/**
 * The embedded default: one SQLite database in WAL mode, `synchronous = FULL`, one transaction per
 * record, so a record is on disk before the promise resolves and a crash at any point leaves every
 * committed record intact. better-sqlite3 is synchronous; the methods are async for the interface's
 * sake (a remote backend), and each runs to completion inside one call, so records are never interleaved.
 */
export class SqliteJournal implements Journal {
  readonly backend = "sqlite";
  readonly results: RecoveryStore;
  private closed = false;
  private readonly stmt: ReturnType<SqliteJournal["prepareAll"]>;

  private constructor(private readonly db: Database) {
    this.stmt = this.prepareAll();
    this.results = this.resultStore();
  }

  /** Opens (creating it and its folder if needed) the database at `path`. */
  static open(path: string): SqliteJournal {
    const Driver = loadDriver();
    let db: Database | undefined;
    try {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
      db = new Driver(path, { timeout: 5_000 });
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      db.pragma("foreign_keys = OFF");
      db.exec(SCHEMA);
      const version = db.prepare("SELECT value FROM meta WHERE name = 'schema_version'").get() as
        | { value: string }
        | undefined;
      if (version === undefined)
        db.prepare("INSERT INTO meta (name, value) VALUES ('schema_version', ?)").run(SCHEMA_VERSION);
      else if (String(version.value) !== SCHEMA_VERSION)
        throw new JournalError(
          "SCHEMA",
          `the journal database has schema version ${String(version.value)}, and this runtime reads version ${SCHEMA_VERSION}; use the cave version that wrote it, or a new database`,
        );
      return new SqliteJournal(db);
    } catch (thrown) {
      db?.close();
      throw journalError("open the sqlite database", thrown);
    }
  }

  private prepareAll() {
    const db = this.db;
    return {
      insertRun: db.prepare(
        "INSERT INTO runs (run_id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT (run_id) DO NOTHING",
      ),
      touchRun: db.prepare("UPDATE runs SET updated_at = ? WHERE run_id = ?"),
      getRun: db.prepare("SELECT run_id, created_at, updated_at, finished_at FROM runs WHERE run_id = ?"),
      callsOf: db.prepare("SELECT * FROM calls WHERE run_id = ? ORDER BY seq"),
      intent:
        db.prepare(`INSERT INTO calls (run_id, key, seq, parent_key, tool, args_sha256, occurrence, call_id, parent_id, lock_integrity, effect, idempotency_key, intent_at)
        VALUES (@runId, @key, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE run_id = @runId), @parentKey, @tool, @argsSha256, @occurrence, @callId, @parentId, @lockIntegrity, @effect, @idempotencyKey, @at)
        ON CONFLICT (run_id, key) DO UPDATE SET call_id = excluded.call_id, parent_id = excluded.parent_id, lock_integrity = excluded.lock_integrity, intent_at = excluded.intent_at
        WHERE calls.outcome IS NULL`),
      complete:
        db.prepare(`UPDATE calls SET outcome = @outcome, result_sha256 = @resultSha256, plan = @plan, dispatched = @dispatched, run_elapsed_ms = @runElapsedMs, completed_at = @at
        WHERE run_id = @runId AND key = @key AND outcome IS NULL`),
      finish: db.prepare("UPDATE runs SET finished_at = ?, updated_at = ? WHERE run_id = ?"),
      list: db.prepare(`SELECT r.run_id, r.created_at, r.updated_at, r.finished_at,
          (SELECT COUNT(*) FROM calls c WHERE c.run_id = r.run_id) AS calls,
          (SELECT COUNT(*) FROM calls c WHERE c.run_id = r.run_id AND c.outcome IS NULL) AS in_doubt,
          (SELECT group_concat(DISTINCT COALESCE(c.lock_integrity, '(none)')) FROM calls c WHERE c.run_id = r.run_id) AS locks
        FROM runs r ORDER BY r.created_at, r.run_id`),
      expired: db.prepare(
        "SELECT run_id FROM runs WHERE (finished_at IS NOT NULL AND finished_at < @before) OR (@all = 1 AND updated_at < @before) ORDER BY run_id",
      ),
      deleteCalls: db.prepare("DELETE FROM calls WHERE run_id = ?"),
      deleteRun: db.prepare("DELETE FROM runs WHERE run_id = ?"),
      orphanResults: db.prepare(
        "DELETE FROM results WHERE sha256 NOT IN (SELECT result_sha256 FROM calls WHERE result_sha256 IS NOT NULL)",
      ),
      putResult: db.prepare("INSERT INTO results (sha256, bytes) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING"),
      getResult: db.prepare("SELECT bytes FROM results WHERE sha256 = ?"),
      getMeta: db.prepare("SELECT value FROM meta WHERE name = ?"),
      putMeta: db.prepare("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"),
    };
  }

  /** Runs `what` as one transaction; any failure is a JournalError and the transaction is rolled back. */
  private write<T>(what: string, fn: () => T): T {
    if (this.closed) throw new JournalError("CLOSED", `the journal is closed, so it could not ${what}`);
    try {
      return this.db.transaction(fn)();
    } catch (thrown) {
      throw journalError(what, thrown);
    }
  }

  private read<T>(what: string, fn: () => T): T {
    if (this.closed) throw new JournalError("CLOSED", `the journal is closed, so it could not ${what}`);
    try {
      return fn();
    } catch (thrown) {
      throw journalError(what, thrown);
    }
  }

  async openRun(runId: string, at: number): Promise<RecordedRun> {
    this.write("open the run", () => this.stmt.insertRun.run(runId, at, at));
    return (await this.readRun(runId))!;
  }

  async recordIntent(intent: Intent): Promise<void> {
    this.write("record the call's intent", () => {
      const changed = this.stmt.intent.run(intent).changes;
      if (changed === 0)
        throw new JournalError(
          "CONFLICT",
          `call ${intent.key} of run ${intent.runId} already has a completion (another process resumed the same run); resume a run in one process at a time`,
        );
      this.stmt.touchRun.run(intent.at, intent.runId);
    });
  }

  async recordCompletion(completion: Completion): Promise<void> {
    this.write("record the call's completion", () => {
      const changed = this.stmt.complete.run({ ...completion, dispatched: completion.dispatched ? 1 : 0 }).changes;
      if (changed === 0)
        throw new JournalError(
          "CONFLICT",
          `call ${completion.key} of run ${completion.runId} has no open intent (another process completed it); resume a run in one process at a time`,
        );
      this.stmt.touchRun.run(completion.at, completion.runId);
    });
  }

  async recordRefused(intent: Intent, completion: Completion): Promise<void> {
    this.write("record the refused call", () => {
      if (this.stmt.intent.run(intent).changes === 0)
        throw new JournalError(
          "CONFLICT",
          `call ${intent.key} of run ${intent.runId} is already complete; resume a run in one process at a time`,
        );
      this.stmt.complete.run({ ...completion, dispatched: completion.dispatched ? 1 : 0 });
      this.stmt.touchRun.run(completion.at, completion.runId);
    });
  }

  async readRun(runId: string): Promise<RecordedRun | null> {
    return this.read("read the run", () => {
      const run = this.stmt.getRun.get(runId) as
        | { run_id: string; created_at: number; finished_at: number | null }
        | undefined;
      if (run === undefined) return null;
      const calls = (this.stmt.callsOf.all(runId) as CallRow[]).map(toRecordedCall);
      return { runId: run.run_id, createdAt: run.created_at, finishedAt: run.finished_at, calls };
    });
  }

  async listRuns(): Promise<readonly RunSummary[]> {
    return this.read("list the runs", () =>
      (
        this.stmt.list.all() as Array<{
          run_id: string;
          created_at: number;
          updated_at: number;
          finished_at: number | null;
          calls: number;
          in_doubt: number;
          locks: string | null;
        }>
      ).map((r) => ({
        runId: r.run_id,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        finishedAt: r.finished_at,
        calls: r.calls,
        inDoubt: r.in_doubt,
        locks: r.locks === null ? [] : r.locks.split(",").sort(),
      })),
    );
  }

  async finishRun(runId: string, at: number): Promise<void> {
    this.write("mark the run finished", () => {
      if (this.stmt.finish.run(at, at, runId).changes === 0)
        throw new JournalError("NOT_FOUND", `the journal has no run ${JSON.stringify(runId)}`);
    });
  }

  async expire(options: ExpireOptions): Promise<readonly string[]> {
    return this.write("expire runs", () => {
      const ids = (
        this.stmt.expired.all({
          before: options.finishedBefore,
          all: options.includeUnfinished === true ? 1 : 0,
        }) as Array<{ run_id: string }>
      ).map((r) => r.run_id);
      for (const id of ids) {
        this.stmt.deleteCalls.run(id);
        this.stmt.deleteRun.run(id);
      }
      // Exact results no remaining call refers to go with them (results are shared by hash across runs).
      this.stmt.orphanResults.run();
      return ids;
    });
  }

  private resultStore(): RecoveryStore {
    let key: Uint8Array | undefined;
    return {
      put: async (sha256, bytes) => {
        this.write("store the exact result", () =>
          this.stmt.putResult.run(sha256, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
        );
      },
      get: async (sha256) => {
        const row = this.read("read the exact result", () => this.stmt.getResult.get(sha256)) as
          | { bytes: Buffer }
          | undefined;
        return row === undefined ? null : new Uint8Array(row.bytes);
      },
      key: async () => {
        if (key !== undefined) return key;
        // Created once, in the database, so every process (and every resume) signs alike.
        const stored = this.write("create the result-reference key", () => {
          this.stmt.putMeta.run("result_key", randomBytes(32));
          return this.stmt.getMeta.get("result_key") as { value: Buffer };
        });
        key = new Uint8Array(stored.value);
        return key;
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
