import type { CodeEntry } from "./types.js";

/**
 * Durable runs: call outcome codes of a runtime with a journal (spread into RUNTIME_CODES, so a
 * call's error.code can hold them), and the RuntimeError code of a journal that cannot be opened.
 */
export const JOURNAL_RUNTIME_CODES = {
  JOURNAL_FAILED: {
    title: "Journal write or read failed",
    doc: "The run's journal could not record (or read) what a durable run needs: the disk is full (ENOSPC, SQLITE_FULL), the database or its folder is read-only, another process holds the run (on PostgreSQL: another live host holds the run's lease, or took the run over from this host, whose writes are then fenced off), or the journal could not be opened. Before dispatch, the call is not run and gives back its budget; after dispatch, its outcome is withheld (the receipt says effectUnknown for a tool that is not read-only) and a resume finds it in doubt. Nothing recorded before is lost. Fix the journal's storage (cave runs show RUN lists what it holds), then resume the run.",
  },
  JOURNAL_LOCK_CHANGED: {
    title: "Run recorded under another lock",
    doc: 'startRun({ id }) resumes a run whose calls were recorded under another cave.lock; the message names both integrities. Recorded outcomes may not be what this lock gives, so every call is refused. Resume with the lock the run was recorded under, pass startRun({ id, lockChange: "replay" }) to replay what was recorded (each replayed receipt names its lock), or start a new run.',
  },
} as const satisfies Record<string, CodeEntry>;

/** CAVE922x: `cave runs` (reading and expiring a journal from the command line). */
export const JOURNAL_CLI_CODES = {
  CAVE9220: {
    title: "Journal not found",
    doc: "`cave runs` found no journal where the setting points (--journal, else CAVE_JOURNAL, else the journal key of cave.config.json, else sqlite:.cave-state/journal.db under --root). Pass --journal with the setting the runtime uses.",
  },
  CAVE9221: {
    title: "Journal could not be read",
    doc: "`cave runs` could not open or read the journal: the message gives the cause (better-sqlite3 is not installed, the file is locked by a running host, the database is of another schema version, the disk failed). Fix the cause and run it again.",
  },
  CAVE9222: {
    title: "Run not found",
    doc: "`cave runs show RUN` names a run the journal does not hold (it never ran, or retention expired it). `cave runs list` lists the runs it holds.",
  },
} as const satisfies Record<string, CodeEntry>;
