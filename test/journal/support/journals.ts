import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { build } from "../../../compiler/build.js";
import { adminPool, dropSchemas, freshSchema, TEST_PG_ENV, testPgUrl } from "../../support/postgres.js";
import { copyProject } from "../../support/projects.js";

/** The backends every durable-run test runs on. */
export const BACKENDS = ["sqlite", "file", "postgres"] as const;
export type Backend = (typeof BACKENDS)[number];

const schemas: string[] = [];

/**
 * A fresh journal of `backend`: a file in its own temporary folder `dir`, or (postgres) a schema of
 * its own in the test server, `path` naming the file or the schema; `env` is what a host process
 * needs in its environment to open it.
 */
export function freshJournal(backend: Backend): {
  setting: string;
  dir: string;
  path: string;
  env: Record<string, string>;
} {
  const dir = mkdtempSync(join(tmpdir(), `cave-durable-${backend}-`));
  if (backend === "postgres") {
    const schema = freshSchema();
    schemas.push(schema);
    // A short lease: a resume after a crash waits for the killed host's lease to expire.
    return {
      setting: `postgres:${TEST_PG_ENV}?schema=${schema}&lease=3`,
      dir,
      path: schema,
      env: { [TEST_PG_ENV]: testPgUrl() },
    };
  }
  const path = join(dir, backend === "sqlite" ? "journal.db" : "journal.jsonl");
  return { setting: `${backend}:${path}`, dir, path, env: {} };
}

/** Drops the PostgreSQL schemas freshJournal made in this test file (call in afterAll). */
export async function dropFreshSchemas(): Promise<void> {
  if (schemas.length > 0) await dropSchemas(schemas.splice(0));
}

/** The calls a journal holds, read the way another process would (the host may still be running). */
export async function recordedCalls(
  backend: Backend,
  path: string,
): Promise<Array<{ tool: string; complete: boolean }>> {
  if (backend === "postgres") {
    try {
      const { rows } = await adminPool().query<{ tool: string; complete: boolean }>(
        `SELECT tool, outcome IS NOT NULL AS complete FROM "${path}".calls ORDER BY seq`,
      );
      return rows.map((r) => ({ tool: r.tool, complete: r.complete }));
    } catch (thrown) {
      if ((thrown as { code?: string }).code === "42P01") return []; // not created yet
      throw thrown;
    }
  }
  if (!existsSync(path)) return [];
  if (backend === "sqlite") {
    const Database = createRequire(import.meta.url)("better-sqlite3") as new (
      p: string,
      o: { readonly: boolean },
    ) => { prepare(s: string): { all(): unknown[] }; close(): void };
    const db = new Database(path, { readonly: true });
    try {
      return (
        db.prepare("SELECT tool, outcome IS NOT NULL AS complete FROM calls ORDER BY seq").all() as Array<{
          tool: string;
          complete: number;
        }>
      ).map((r) => ({ tool: r.tool, complete: r.complete === 1 }));
    } catch {
      return [];
    } finally {
      db.close();
    }
  }
  const calls = new Map<string, { tool: string; complete: boolean }>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.endsWith("}")) continue;
    const entry = JSON.parse(line) as { t: string; key: string; tool?: string };
    if (entry.t === "intent") calls.set(entry.key, { tool: entry.tool!, complete: false });
    if (entry.t === "completion") calls.get(entry.key)!.complete = true;
  }
  return [...calls.values()];
}

/**
 * Everything the backend wrote, as latin1 text for grepping: every byte under `dir` (database, WAL,
 * file journal, stored results), or (postgres) every row of the journal's schema.
 */
export async function everythingWritten(backend: Backend, journal: { dir: string; path: string }): Promise<string> {
  if (backend === "postgres") {
    let text = "";
    for (const table of ["meta", "runs", "calls", "results"]) {
      const { rows } = await adminPool().query(`SELECT * FROM "${journal.path}".${table}`);
      for (const row of rows)
        for (const value of Object.values(row))
          text += `${Buffer.isBuffer(value) ? value.toString("latin1") : String(value)}\n`;
    }
    return text;
  }
  const dir = journal.dir;
  let text = "";
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(at, entry.name));
      else text += readFileSync(join(at, entry.name)).toString("latin1");
    }
  };
  walk(dir);
  return text;
}

/** Copies test/journal/projects/durable to a temporary root and builds it with the real compiler. */
export async function builtDurableProject(): Promise<string> {
  const root = copyProject("test/journal/projects/durable");
  const result = await build({ root });
  expect(
    result.diagnostics.filter((d) => d.severity === "error"),
    "the test project must build",
  ).toEqual([]);
  return root;
}

/** The lines of an effect file (empty when the tool never ran). */
export function effects(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}
