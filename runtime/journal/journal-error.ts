/**
 * Why a journal could not do what it was asked, as data: the pipeline turns it into a JOURNAL_FAILED
 * outcome (never a rejection of call()), and `cave runs` prints it. `reason` is a short code of the
 * cause (ENOSPC, EROFS, SQLITE_FULL, SQLITE_READONLY, CONFLICT, LOCKED, ...) when one is known.
 */
import { thrownText } from "../../src/contract/thrown-message.mjs";
export class JournalError extends Error {
  override readonly name = "JournalError";

  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** The code of a thrown error (errno code or SQLite result code), or "unknown". */
export function reasonOf(thrown: unknown): string {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === "string" && code !== "" ? code : "unknown";
}

/** Wraps whatever a backend threw while doing `what` as a JournalError naming its cause. */
export function journalError(what: string, thrown: unknown): JournalError {
  if (thrown instanceof JournalError) return thrown;
  const reason = reasonOf(thrown);
  const detail = thrownText(thrown);
  return new JournalError(reason, `the journal could not ${what} (${reason}: ${detail.slice(0, 300)})`);
}
