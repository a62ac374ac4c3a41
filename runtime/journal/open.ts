import { isAbsolute, resolve } from "node:path";
import { FileJournal } from "./file-journal.js";
import { JournalError } from "./journal-error.js";
import { PostgresJournal } from "./postgres-journal.js";
import { parsePostgresSetting } from "./postgres-setting.js";
import { shownSetting } from "./setting.js";
import { SqliteJournal } from "./sqlite-journal.js";
import type { Journal } from "./types.js";

/** Where the SQLite journal lives when the setting names only the backend ("sqlite"). */
export const DEFAULT_SQLITE_PATH = ".cave-state/journal.db";

/**
 * Opens the journal a URL-like setting names, relative paths against `root`:
 * - `sqlite` or `sqlite:<path>` (default path .cave-state/journal.db): the embedded default, needs better-sqlite3 12;
 * - `file:<path>`: JSON lines, no dependency, one process at a time;
 * - `postgres[:ENV_VAR][?schema=NAME&lease=SECONDS]`: PostgreSQL for many hosts, needs pg 8; the
 *   connection string is read from ENV_VAR (default CAVE_POSTGRES_URL) in `env`, never from the setting.
 * Other schemes are refused with the list of those this runtime has.
 */
export async function openJournal(
  setting: string,
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Journal> {
  const scheme = schemeOf(setting);
  const resolved = journalPath(setting, root);
  switch (scheme) {
    case "sqlite":
      return SqliteJournal.open(resolved!);
    case "file":
      if (resolved === null)
        throw new JournalError("SETTING", 'a file journal needs a path: "file:.cave-state/journal.jsonl"');
      return FileJournal.open(resolved);
    case "postgres":
      return PostgresJournal.open(parsePostgresSetting(setting, env));
    default:
      throw new JournalError(
        "SETTING",
        `journal setting ${shownSetting(setting)} names no backend this runtime has; use "sqlite:<path>" (the default, needs better-sqlite3 12), "file:<path>" or "postgres:<ENV_VAR holding the connection string>" (needs pg 8)`,
      );
  }
}

function schemeOf(setting: string): string {
  const end = setting.search(/[:?]/);
  return end === -1 ? setting : setting.slice(0, end);
}

/** The file a sqlite: or file: setting names (absolute), ":memory:", or null when it names none. */
export function journalPath(setting: string, root: string): string | null {
  const colon = setting.indexOf(":");
  const scheme = schemeOf(setting);
  const rest = colon === -1 ? "" : setting.slice(colon + 1);
  if (scheme !== "sqlite" && scheme !== "file") return null;
  if (rest === "") return scheme === "sqlite" ? resolve(root, DEFAULT_SQLITE_PATH) : null;
  if (rest === ":memory:") return rest;
  // file:///abs/path and sqlite:///abs/path are accepted as URLs are usually written.
  const path = rest.startsWith("//") ? rest.slice(2) : rest;
  return isAbsolute(path) ? path : resolve(root, path);
}
