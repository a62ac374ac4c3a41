import { createRequire } from "node:module";
import { JournalError, journalError, reasonOf } from "./journal-error.js";

/**
 * The part of `pg` 8 the PostgreSQL journal uses. `pg` is an optional peer dependency loaded on
 * open, and these types are cave's own so that a deploy without it (or without @types/pg) type-checks.
 */
export interface PgResult<R> {
  readonly rows: R[];
  readonly rowCount: number | null;
}
export interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<PgResult<R>>;
}
export interface PgClient extends PgQueryable {
  release(error?: Error | boolean): void;
}
export interface PgPool extends PgQueryable {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}
export interface PgPoolConfig {
  readonly connectionString: string;
  readonly max?: number;
  readonly application_name?: string;
  readonly connectionTimeoutMillis?: number;
  readonly types?: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}
export interface PgModule {
  Pool: new (config: PgPoolConfig) => PgPool;
  types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

/** Loads `pg` from the application's node_modules, or says how to install it. */
export function loadPg(): PgModule {
  for (const req of [createRequire(`${process.cwd()}/`), createRequire(import.meta.url)]) {
    try {
      return req("pg") as PgModule;
    } catch (thrown) {
      if (reasonOf(thrown) !== "MODULE_NOT_FOUND") throw journalError("load pg", thrown);
    }
  }
  throw new JournalError(
    "MODULE_NOT_FOUND",
    "the postgres journal needs the optional peer dependency pg 8: run `npm install pg@8`",
  );
}

const INT8_OID = 20;

/**
 * A pool whose int8 columns come back as numbers (the journal's are milliseconds, sequence numbers
 * and epochs, far below 2^53), not strings.
 */
export function newPool(pg: PgModule, url: string, max: number): PgPool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: "cave-journal",
    connectionTimeoutMillis: 10_000,
    types: {
      getTypeParser: (oid, format) =>
        oid === INT8_OID && format !== "binary" ? Number : pg.types.getTypeParser(oid, format),
    },
  });
  // An idle connection the server drops must not crash the process: the next query reconnects or fails as data.
  pool.on("error", () => undefined);
  return pool;
}
