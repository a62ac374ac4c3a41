import { JournalError } from "./journal-error.js";

/** The environment variable a bare `postgres` setting reads the connection string from. */
export const DEFAULT_POSTGRES_URL_ENV = "CAVE_POSTGRES_URL";
/** How long a host holds a run without a sign of life before another host may take it over. */
export const DEFAULT_LEASE_SECONDS = 15;

export interface PostgresSetting {
  /** The connection string (read from the environment, never written anywhere by cave). */
  readonly url: string;
  /** The environment variable it came from (for messages: the string itself carries a password). */
  readonly urlEnv: string;
  /** The schema holding cave's tables. */
  readonly schema: string;
  readonly leaseMs: number;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
// An unquoted PostgreSQL identifier: the schema name goes into DDL, so only these are accepted.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const KEYS = ["schema", "lease"] as const;

/**
 * Reads `postgres[:ENV_VAR][?schema=NAME&lease=SECONDS]`. The setting names the environment
 * variable that holds the connection string, never the string itself: a setting lives in
 * cave.config.json, CAVE_JOURNAL or code, and a connection string carries a password.
 */
export function parsePostgresSetting(
  setting: string,
  env: Readonly<Record<string, string | undefined>>,
): PostgresSetting {
  const rest = setting.slice("postgres".length).replace(/^:/, "");
  if (/^(postgres(ql)?:)?\/\//.test(rest) || rest.includes("@")) {
    throw new JournalError(
      "SETTING",
      `a postgres journal setting names the environment variable holding the connection string, not the string itself (it carries a password, and settings are kept in config files): set ${DEFAULT_POSTGRES_URL_ENV}=postgres://user:password@host:5432/database and use "postgres:${DEFAULT_POSTGRES_URL_ENV}"`,
    );
  }
  const [name = "", query] = rest.split("?", 2) as [string, string | undefined];
  const urlEnv = name === "" ? DEFAULT_POSTGRES_URL_ENV : name;
  if (!ENV_NAME.test(urlEnv))
    throw new JournalError(
      "SETTING",
      `${JSON.stringify(urlEnv.slice(0, 100))} is not an environment variable name; use "postgres:${DEFAULT_POSTGRES_URL_ENV}" (letters, digits and _)`,
    );
  let schema = "cave";
  let leaseSeconds = DEFAULT_LEASE_SECONDS;
  for (const [key, value] of new URLSearchParams(query ?? "")) {
    if (!(KEYS as readonly string[]).includes(key))
      throw new JournalError(
        "SETTING",
        `the postgres journal setting has no option ${JSON.stringify(key.slice(0, 50))}; its options are ${KEYS.join(" and ")} ("postgres:${urlEnv}?schema=cave&lease=${DEFAULT_LEASE_SECONDS}")`,
      );
    if (key === "schema") {
      if (!SCHEMA_NAME.test(value))
        throw new JournalError(
          "SETTING",
          `schema ${JSON.stringify(value.slice(0, 100))} is not a plain PostgreSQL name; use lower-case letters, digits and _ (at most 63, not starting with a digit)`,
        );
      schema = value;
    } else {
      leaseSeconds = Number(value);
      if (!/^\d+(\.\d+)?$/.test(value) || leaseSeconds < 1 || leaseSeconds > 3600)
        throw new JournalError(
          "SETTING",
          `lease=${JSON.stringify(value.slice(0, 50))} must be a number of seconds from 1 to 3600 (default ${DEFAULT_LEASE_SECONDS}): how long a run stays with a host that stopped answering`,
        );
    }
  }
  const url = env[urlEnv];
  if (url === undefined || url === "")
    throw new JournalError(
      "SETTING",
      `the postgres journal reads its connection string from the environment variable ${urlEnv}, which is not set; set it to postgres://user:password@host:5432/database`,
    );
  return { url, urlEnv, schema, leaseMs: Math.round(leaseSeconds * 1000) };
}
