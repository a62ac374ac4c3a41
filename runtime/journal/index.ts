/** A durable journal of receipts and call outcomes, with replay (docs/sandbox.md, "Journal and replay"). */
export { FileJournal, type JournalEntry, type StartEntry, type EndEntry, type ReceiptEntry } from "./file-journal.js";
export { durableRun, type DurableRun, type DurableRunOptions } from "./durable-run.js";
