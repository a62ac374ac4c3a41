import { isAbsolute, resolve } from "node:path";
import { FileJournal } from "./file-journal.js";
import { JournalError } from "./journal-error.js";
import { SqliteJournal } from "./sqlite-journal.js";
import type { Journal } from "./types.js";

/** The environment variable a deploy sets to choose the journal when createRuntime() is given none. */
export const JOURNAL_ENV = "CAVE_JOURNAL";

/** Where the SQLite journal lives when the setting names only the backend ("sqlite"). */
export const DEFAULT_SQLITE_PATH = ".cave-state/journal.db";

/**
 * Opens the journal a URL-like setting names, relative paths against `root`:
 * - `sqlite` or `sqlite:<path>` (default path .cave-state/journal.db): the embedded default, needs better-sqlite3 12;
 * - `file:<path>`: JSON lines, no dependency, one process at a time.
 * Other schemes (postgres:, ...) are refused with the list of those this runtime has.
 */
export function openJournal(setting: string, root: string): Journal {
  const colon = setting.indexOf(":");
  const scheme = colon === -1 ? setting : setting.slice(0, colon);
  const rest = colon === -1 ? "" : setting.slice(colon + 1);
  // file:///abs/path and sqlite:///abs/path are accepted as URLs are usually written.
  const path = (p: string) => (p.startsWith("//") ? p.slice(2) : p);
  const at = (p: string) => (isAbsolute(p) ? p : resolve(root, p));
  switch (scheme) {
    case "sqlite":
      return SqliteJournal.open(rest === "" ? at(DEFAULT_SQLITE_PATH) : rest === ":memory:" ? ":memory:" : at(path(rest)));
    case "file":
      if (rest === "") throw new JournalError("SETTING", 'a file journal needs a path: "file:.cave-state/journal.jsonl"');
      return FileJournal.open(at(path(rest)));
    default:
      throw new JournalError("SETTING", `journal setting ${JSON.stringify(setting.slice(0, 100))} names no backend this runtime has; use "sqlite:<path>" (the default, needs better-sqlite3 12) or "file:<path>"`);
  }
}
