// The PostgreSQL journal's own behaviour (the resume and crash tests run on it like on the other
// backends): its setting, versioned migrations, leases and fencing, and stored results shared by
// hosts. Against the test server (test/support/postgres.ts); each test has a schema of its own.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createRuntime,
  openJournal,
  type CallOutcome,
  type Intent,
  type Journal,
  type Runtime,
} from "../../runtime/index.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../runtime/journal/postgres-migrations.js";
import { cave } from "../cli/helpers.js";
import { adminPool, TEST_PG_ENV, testPgUrl } from "../support/postgres.js";
import { removeCopies } from "../support/projects.js";
import { builtDurableProject, dropFreshSchemas, effects, freshJournal } from "./support/journals.js";

let root: string;
beforeAll(async () => {
  testPgUrl();
  root = await builtDurableProject();
});
const open: Array<Runtime | Journal> = [];
afterAll(async () => {
  for (const each of open) await each.close();
  removeCopies();
  await dropFreshSchemas();
});

async function runtimeOn(setting: string): Promise<Runtime> {
  const runtime = await createRuntime({ root, mode: "host", journal: setting });
  open.push(runtime);
  return runtime;
}
async function journalOn(setting: string): Promise<Journal> {
  const journal = await openJournal(setting, root);
  open.push(journal);
  return journal;
}
const code = (outcome: CallOutcome) => (outcome.ok ? "ok" : outcome.error.code);
const message = (outcome: CallOutcome) => (outcome.ok ? "" : outcome.error.message);
const schemaOf = (setting: string) => /schema=([a-z0-9_]+)/.exec(setting)![1]!;
async function schemaExists(schema: string): Promise<boolean> {
  return (await adminPool().query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema])).rows.length === 1;
}
function intentOf(runId: string, key: string): Intent {
  return {
    runId,
    key,
    parentKey: null,
    tool: "append_line",
    argsSha256: "sha256-x",
    occurrence: 0,
    callId: `c-${key}`,
    parentId: null,
    lockIntegrity: null,
    effect: "write",
    idempotencyKey: null,
    at: Date.now(),
  };
}

describe("the postgres journal setting", () => {
  it("names the environment variable holding the connection string; a string in the setting is refused and nothing is created", async () => {
    const password = new URL(testPgUrl()).password;
    expect(password.length).toBeGreaterThan(8);
    await expect(createRuntime({ root, mode: "host", journal: testPgUrl() })).rejects.toMatchObject({
      code: "JOURNAL_FAILED",
      message: expect.stringContaining('use "postgres:CAVE_POSTGRES_URL"'),
    });
    for (const pasted of [`postgres:${testPgUrl()}`, testPgUrl().replace("postgres:", "mysql:")]) {
      const refused = (await createRuntime({ root, mode: "host", journal: pasted }).catch((e: unknown) => e)) as Error;
      expect(refused.message).toContain("cave:***@127.0.0.1");
      expect(refused.message).not.toContain(password);
    }
    await expect(
      createRuntime({ root, mode: "host", journal: "postgres:CAVE_TEST_NOT_SET_ANYWHERE" }),
    ).rejects.toMatchObject({
      code: "JOURNAL_FAILED",
      message: expect.stringContaining(
        "environment variable CAVE_TEST_NOT_SET_ANYWHERE, which is not set; set it to postgres://",
      ),
    });
  });

  it("rejects unknown options, schema names that are not plain names, and bad lease times, saying what is accepted", async () => {
    const schema = "t_never_created";
    for (const [setting, says] of [
      [`postgres:${TEST_PG_ENV}?schema=${schema}&leese=3`, 'has no option "leese"; its options are schema and lease'],
      [`postgres:${TEST_PG_ENV}?schema=${schema}";drop`, "is not a plain PostgreSQL name"],
      [`postgres:${TEST_PG_ENV}?schema=${schema}&lease=0`, "must be a number of seconds from 1 to 3600"],
      [`postgres:${TEST_PG_ENV}?schema=${schema}&lease=soon`, "must be a number of seconds from 1 to 3600"],
      ["postgres:not-a-name", "is not an environment variable name"],
    ] as const) {
      await expect(createRuntime({ root, mode: "host", journal: setting }), setting).rejects.toMatchObject({
        code: "JOURNAL_FAILED",
        message: expect.stringContaining(says),
      });
    }
    expect(await schemaExists(schema)).toBe(false);
  });

  it("fails to open with the cause when the server cannot be reached, and never prints the password", async () => {
    const url = new URL(testPgUrl());
    url.port = "1";
    process.env.CAVE_TEST_PG_UNREACHABLE = url.toString();
    try {
      const refused = (await createRuntime({ root, mode: "host", journal: "postgres:CAVE_TEST_PG_UNREACHABLE" }).catch(
        (e: unknown) => e,
      )) as { code: string; message: string };
      expect(refused.code).toBe("JOURNAL_FAILED");
      expect(refused.message).toContain("ECONNREFUSED");
      expect(refused.message).toContain("connection string from CAVE_TEST_PG_UNREACHABLE");
      expect(refused.message).not.toContain(url.password);
    } finally {
      delete process.env.CAVE_TEST_PG_UNREACHABLE;
    }
  });
});

describe("the postgres journal schema", () => {
  it("is created at the last version, each migration recorded once, also when hosts open it together", async () => {
    const { setting } = freshJournal("postgres");
    await Promise.all([journalOn(setting), journalOn(setting), journalOn(setting)]);
    const { rows } = await adminPool().query<{ version: number }>(
      `SELECT version FROM "${schemaOf(setting)}".migrations ORDER BY version`,
    );
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)!.version);
  });

  it("migrates a database of an older version, keeping its runs", async () => {
    const { setting } = freshJournal("postgres");
    const schema = schemaOf(setting);
    // A database as the first version left it: one run with one completed call.
    const pool = adminPool();
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(
      `CREATE TABLE "${schema}".migrations (version int4 PRIMARY KEY, what text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    await pool.query(MIGRATIONS[0]!.sql.replaceAll("{s}", `"${schema}"`));
    await pool.query(`INSERT INTO "${schema}".migrations (version, what) VALUES (1, $1)`, [MIGRATIONS[0]!.what]);
    await pool.query(`INSERT INTO "${schema}".runs VALUES ('old', 1, 2, NULL)`);
    await pool.query(`INSERT INTO "${schema}".calls (run_id, key, seq, tool, args_sha256, occurrence, call_id, effect, intent_at, outcome, dispatched, run_elapsed_ms, completed_at)
      VALUES ('old', 'k1', 7, 'tick', 'sha256-a', 0, 'c1', 'read', 1, '{"ok":true}', true, 5, 2)`);

    const journal = await journalOn(setting);
    const run = await journal.openRun("old", Date.now());
    expect(run.calls.map((c) => [c.intent.tool, c.completion?.outcome])).toEqual([["tick", '{"ok":true}']]);
    // The run's own sequence continues after the calls it had.
    await journal.recordIntent(intentOf("old", "k2"));
    const { rows } = await pool.query<{ key: string; seq: number }>(
      `SELECT key, seq FROM "${schema}".calls ORDER BY seq`,
    );
    expect(rows).toEqual([
      { key: "k1", seq: 7 },
      { key: "k2", seq: 8 },
    ]);
    expect(
      (await pool.query(`SELECT version FROM "${schema}".migrations ORDER BY version`)).rows.map((r) => r.version),
    ).toEqual([1, 2]);
  });

  it("refuses a database a newer cave migrated, saying to upgrade, and writes nothing into it", async () => {
    const { setting } = freshJournal("postgres");
    const schema = schemaOf(setting);
    await journalOn(setting);
    const pool = adminPool();
    await pool.query(`INSERT INTO "${schema}".migrations (version, what) VALUES ($1, 'from the future')`, [
      SCHEMA_VERSION + 1,
    ]);
    const before = (await pool.query(`SELECT * FROM "${schema}".migrations ORDER BY version`)).rows;
    await expect(createRuntime({ root, mode: "host", journal: setting })).rejects.toMatchObject({
      code: "JOURNAL_FAILED",
      message: expect.stringContaining(
        `is at version ${SCHEMA_VERSION + 1}, newer than this cave knows (${SCHEMA_VERSION}): a newer cave migrated it. Upgrade cave`,
      ),
    });
    expect((await pool.query(`SELECT * FROM "${schema}".migrations ORDER BY version`)).rows).toEqual(before);
    expect((await pool.query(`SELECT count(*)::int4 AS n FROM "${schema}".runs`)).rows[0]).toEqual({ n: 0 });
  });
});

describe("leases and fencing", () => {
  it("lets one host drive a run: another host waits one lease time, then is refused while the first renews", async () => {
    const { setting, dir } = freshJournal("postgres");
    const short = setting.replace("lease=3", "lease=1");
    const file = join(dir, "effects.txt");
    const first = await runtimeOn(short);
    expect(code(await first.startRun({ id: "one-driver" }).call("append_line", { line: "first", file }))).toBe("ok");
    const second = await runtimeOn(short);
    const started = Date.now();
    const refused = await second.startRun({ id: "one-driver" }).call("append_line", { line: "second", file });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(code(refused)).toBe("JOURNAL_FAILED");
    expect(message(refused)).toContain("is being driven by another host");
    expect(message(refused)).toContain("one host drives a run at a time");
    expect(effects(file)).toEqual(["first"]);
    // Released when the first host closes: the run moves at once.
    await first.close();
    const third = await runtimeOn(short);
    const moved = await third.startRun({ id: "one-driver" }).call("append_line", { line: "third", file });
    expect(code(moved)).toBe("ok");
    expect(effects(file)).toEqual(["first", "third"]);
  });

  it("fences a host whose lease was taken over: its writes are refused and record nothing", async () => {
    const { setting } = freshJournal("postgres");
    const schema = schemaOf(setting);
    const a = await journalOn(setting);
    const b = await journalOn(setting);
    await a.openRun("fenced", Date.now());
    await a.recordIntent(intentOf("fenced", "k1"));
    // Host a stops renewing (paused): its lease runs out, and b takes the run over.
    await adminPool().query(`UPDATE "${schema}".runs SET lease_expires_at = clock_timestamp() - interval '1 second'`);
    const taken = await b.openRun("fenced", Date.now());
    expect(taken.calls.map((c) => c.intent.key)).toEqual(["k1"]);
    const snapshot = async () =>
      (await adminPool().query(`SELECT key, call_id, outcome FROM "${schema}".calls ORDER BY seq`)).rows;
    const before = await snapshot();

    const completion = {
      runId: "fenced",
      key: "k1",
      outcome: '{"ok":true}',
      resultSha256: null,
      plan: "inline",
      dispatched: true,
      runElapsedMs: 1,
      at: Date.now(),
    };
    for (const write of [
      () => a.recordCompletion(completion),
      () => a.recordIntent(intentOf("fenced", "k2")),
      () => a.recordRefused(intentOf("fenced", "k3"), { ...completion, key: "k3" }),
      () => a.finishRun("fenced", Date.now()),
    ]) {
      await expect(write()).rejects.toMatchObject({ reason: expect.stringMatching(/^(FENCED|NO_LEASE)$/) });
    }
    expect(await snapshot()).toEqual(before);
    // The host that took it over writes.
    await b.recordCompletion(completion);
    expect((await snapshot()).map((r) => r.outcome)).toEqual(['{"ok":true}']);
  });

  it("refuses a stale host's first write with FENCED, naming the takeover", async () => {
    const { setting } = freshJournal("postgres");
    const schema = schemaOf(setting);
    const a = await journalOn(setting);
    const b = await journalOn(setting);
    await a.openRun("stale", Date.now());
    await adminPool().query(`UPDATE "${schema}".runs SET lease_expires_at = clock_timestamp() - interval '1 second'`);
    await b.openRun("stale", Date.now());
    const refused = (await a.recordIntent(intentOf("stale", "k1")).catch((e: unknown) => e)) as {
      reason: string;
      message: string;
    };
    expect(refused.reason).toBe("FENCED");
    expect(refused.message).toContain("was taken over by another host");
    expect(refused.message).toContain("lease epoch 2; this host held epoch 1");
    expect(refused.message).toContain("This host records nothing more for the run");
  });
});

describe("stored results across hosts", () => {
  it("resolves a cave_page cursor issued on one host when the run goes on on another host sharing the database", async () => {
    const { setting } = freshJournal("postgres");
    const one = await runtimeOn(setting);
    const issued = await one.startRun({ id: "pages" }).call("big_list", { n: 3000 });
    const cursor = /"cursor":"(pg2\.[^"]+)"/.exec((issued as { content: string }).content)?.[1];
    expect(cursor).toBeDefined();
    await one.close();
    const other = await runtimeOn(setting);
    const page = await other.startRun({ id: "pages" }).call("cave_page", { cursor });
    expect(page.ok, JSON.stringify(page).slice(0, 300)).toBe(true);
    expect((page as { content: string }).content).toContain("item number");
  });
});

describe("cave runs on the postgres journal", () => {
  it("lists and shows what hosts recorded, and expire keeps a run a live host holds", async () => {
    const { setting, dir } = freshJournal("postgres");
    const file = join(dir, "effects.txt");
    const env = { [TEST_PG_ENV]: testPgUrl() };
    const done = await runtimeOn(setting);
    const finished = done.startRun({ id: "finished" });
    await finished.call("lookup", { key: "a", file });
    await finished.finish();
    const live = await runtimeOn(setting);
    await live.startRun({ id: "driven" }).call("tick", { i: 1 });

    const listed = await cave(["runs", "list", "--root", root, "--journal", setting, "--json"], root, env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      (
        JSON.parse(listed.stdout) as { runs: Array<{ runId: string; calls: number; finishedAt: number | null }> }
      ).runs.map((r) => [r.runId, r.calls, r.finishedAt !== null]),
    ).toEqual([
      ["finished", 1, true],
      ["driven", 1, false],
    ]);
    const shown = await cave(["runs", "show", "finished", "--root", root, "--journal", setting], root, env);
    expect(shown.stdout).toContain("lookup [read]  ok  lock sha256-");
    expect(shown.stdout + shown.stderr).not.toContain(new URL(testPgUrl()).password);

    // "driven" is unfinished and a live host holds its lease: expire leaves it, even with --include-unfinished.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const expired = await cave(
      ["runs", "expire", "--older-than", "1ms", "--include-unfinished", "--root", root, "--journal", setting, "--json"],
      root,
      env,
    );
    expect(expired.code, expired.stderr).toBe(0);
    expect(JSON.parse(expired.stdout)).toEqual({ ok: true, expired: ["finished"] });
    await live.close();
    const after = await cave(
      ["runs", "expire", "--older-than", "1ms", "--include-unfinished", "--root", root, "--journal", setting, "--json"],
      root,
      env,
    );
    expect(JSON.parse(after.stdout)).toEqual({ ok: true, expired: ["driven"] });
  });
});

describe("a database that refuses a write", () => {
  it("gives JOURNAL_FAILED before dispatch, runs nothing, and leaves the run's row and calls as they were (fence and write are one statement)", async () => {
    const { setting, dir } = freshJournal("postgres");
    const schema = schemaOf(setting);
    const file = join(dir, "effects.txt");
    const runtime = await runtimeOn(setting);
    const run = runtime.startRun({ id: "refusing" });
    expect(code(await run.call("append_line", { line: "one", file }))).toBe("ok");
    const pool = adminPool();
    const state = async () => ({
      run: (await pool.query(`SELECT next_seq, lease_epoch, updated_at FROM "${schema}".runs`)).rows,
      calls: (await pool.query(`SELECT key, seq, outcome FROM "${schema}".calls ORDER BY seq`)).rows,
    });
    const before = await state();
    // The server refuses every new call row, as a full disk or a revoked grant would.
    await pool.query(
      `CREATE FUNCTION "${schema}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$`,
    );
    await pool.query(
      `CREATE TRIGGER refuse BEFORE INSERT ON "${schema}".calls FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse()`,
    );
    const refused = await run.call("append_line", { line: "two", file });
    expect(code(refused)).toBe("JOURNAL_FAILED");
    expect(message(refused)).toContain("53100");
    expect(message(refused)).toContain("No space left on device");
    expect(effects(file)).toEqual(["one"]);
    expect(await state()).toEqual(before);

    await pool.query(`DROP TRIGGER refuse ON "${schema}".calls`);
    expect(code(await run.call("append_line", { line: "two", file }))).toBe("ok");
    expect(effects(file)).toEqual(["one", "two"]);
  });
});
