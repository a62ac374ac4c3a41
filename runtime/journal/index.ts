/** Durable runs: the Journal interface, its backends and how a setting opens one (docs/runtime.md, "Durable runs"). */
export type {
  Journal,
  Intent,
  Completion,
  CallKey,
  RecordedCall,
  RecordedRun,
  RunSummary,
  ExpireOptions,
} from "./types.js";
export { JournalError } from "./journal-error.js";
export { SqliteJournal } from "./sqlite-journal.js";
export { FileJournal } from "./file-journal.js";
export { PostgresJournal } from "./postgres-journal.js";
export {
  parsePostgresSetting,
  DEFAULT_POSTGRES_URL_ENV,
  DEFAULT_LEASE_SECONDS,
  type PostgresSetting,
} from "./postgres-setting.js";
export { openJournal, journalPath, DEFAULT_SQLITE_PATH } from "./open.js";
export { JOURNAL_ENV, configuredJournal } from "./setting.js";
export type { LockChange } from "./run-journal.js";
