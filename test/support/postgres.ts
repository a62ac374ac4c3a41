// The PostgreSQL server the journal and DBOS tests run against: CAVE_TEST_PG_URL when it is set
// (.ci/run starts one and exports it), else the private cluster of .ci/postgres, started here if it
// is not running (it stays up for the next run; `.ci/postgres stop` stops it). Never skipped: a
// machine where neither works fails these tests, saying how to get a server.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { PgPool } from "../../runtime/journal/pg-driver.js";
import { loadPg, newPool } from "../../runtime/journal/pg-driver.js";
import { REPO_ROOT } from "./golden.js";

/** The environment variable the tests' journal settings name (postgres:CAVE_TEST_PG_URL). */
export const TEST_PG_ENV = "CAVE_TEST_PG_URL";

export function testPgUrl(): string {
  const set = process.env[TEST_PG_ENV];
  if (set !== undefined && set !== "") return set;
  let url: string;
  try {
    url = execFileSync(join(REPO_ROOT, ".ci", "postgres"), ["start"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 300_000,
    }).trim();
  } catch (thrown) {
    const stderr = String((thrown as { stderr?: unknown }).stderr ?? thrown);
    throw new Error(
      `these tests need a PostgreSQL server: set ${TEST_PG_ENV} to its URL, or let .ci/postgres start one (needs Debian's postgresql package: apt-get install postgresql, as root). .ci/postgres said:\n${stderr.slice(-2000)}`,
    );
  }
  process.env[TEST_PG_ENV] = url;
  return url;
}

/** A fresh schema name; with it, each test has its own journal tables in the shared server. */
export function freshSchema(): string {
  return `t_${randomBytes(6).toString("hex")}`;
}

let admin: PgPool | undefined;
/** A pool on the test server for reading what a journal wrote (as another process would). */
export function adminPool(): PgPool {
  admin ??= newPool(loadPg(), testPgUrl(), 2);
  return admin;
}

/** Drops the schemas this process made, then disconnects. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  for (const schema of schemas) await adminPool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin?.end();
  admin = undefined;
}

/** A database of its own (DBOS keeps its system tables in the database its URL names). */
export async function freshDatabase(): Promise<{ url: string; name: string }> {
  const name = `cave_t_${randomBytes(6).toString("hex")}`;
  await adminPool().query(`CREATE DATABASE "${name}"`);
  const url = new URL(testPgUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}
