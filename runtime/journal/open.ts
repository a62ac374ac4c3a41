import { isAbsolute, resolve } from "node:path";
import { FileJournal } from "./file-journal.js";
import { JournalError } from "./journal-error.js";
import { SqliteJournal } from "./sqlite-journal.js";
import type { Journal } from "./types.js";

/** Where the SQLite journal lives when the setting names only the backend ("sqlite"). */
export const DEFAULT_SQLITE_PATH = ".cave-state/journal.db";

/**
 * Opens the journal a URL-like setting names, relative paths against `root`:
 * - `sqlite` or `sqlite:<path>` (default path .cave-state/journal.db): the embedded default, needs better-sqlite3 12;
 * - `file:<path>`: JSON lines, no dependency, one process at a time.
 * Other schemes (postgres:, ...) are refused with the list of those this runtime has.
 */
export function openJournal(setting: string, root: string): Journal {
  const scheme = schemeOf(setting);
  const resolved = journalPath(setting, root);
  switch (scheme) {
    case "sqlite":
      return SqliteJournal.open(resolved!);
    case "file":
      if (resolved === null) throw new JournalError("SETTING", 'a file journal needs a path: "file:.cave-state/journal.jsonl"');
      return FileJournal.open(resolved);
    default:
      throw new JournalError("SETTING", `journal setting ${JSON.stringify(setting.slice(0, 100))} names no backend this runtime has; use "sqlite:<path>" (the default, needs better-sqlite3 12) or "file:<path>"`);
  }
}

function schemeOf(setting: string): string {
  const colon = setting.indexOf(":");
  return colon === -1 ? setting : setting.slice(0, colon);
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
