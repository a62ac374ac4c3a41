import { open, readFile, truncate, type FileHandle } from "node:fs/promises";
import { canonicalJson } from "../../src/contract/hash.js";
import type { CallError, Receipt } from "../../src/contract/outcome.js";
import { RuntimeError } from "../errors.js";
import type { ReceiptSink } from "../receipts.js";

/** A call a durable run is about to make: written (and synced) before the call starts. */
export interface StartEntry {
  readonly type: "start";
  readonly run: string;
  /** Tool, argument hash and how many identical calls came before it in the run. */
  readonly key: string;
  readonly tool: string;
  readonly argsSha256: string;
  readonly readOnly: boolean;
}

/** How that call ended. `content` only for a success: what entered context after output validation. */
export interface EndEntry {
  readonly type: "end";
  readonly run: string;
  readonly key: string;
  readonly receipt: Receipt;
  readonly content?: unknown;
  readonly error?: CallError;
}

/** Any receipt the runtime produced (nested calls included), as a ReceiptSink. */
export interface ReceiptEntry {
  readonly type: "receipt";
  readonly receipt: Receipt;
}

export type JournalEntry = StartEntry | EndEntry | ReceiptEntry;

/**
 * A durable journal: one canonical JSON entry per line, appended and synced to disk (fdatasync)
 * before append() resolves, so "recorded" is a precondition of "returned". It is also a ReceiptSink.
 * A line torn by a crash mid-write is cut off when the journal is opened again: the entry it held
 * never counted as recorded. Only validated results are ever written; an invalid output's value
 * never reaches it (the runtime gives only its size and hash).
 */
export class FileJournal implements ReceiptSink {
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(private readonly handle: FileHandle, readonly entries: readonly JournalEntry[]) {}

  /** Opens (or creates) the journal at `path` and reads what it holds. */
  static async open(path: string): Promise<FileJournal> {
    let text = "";
    try {
      text = await readFile(path, "utf8");
    } catch (thrown) {
      if ((thrown as { code?: unknown }).code !== "ENOENT") throw new RuntimeError("OPTIONS_INVALID", `the journal could not be read (${String((thrown as { code?: unknown }).code ?? "read error")}); check the path and its permissions`);
    }
    const complete = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1);
    if (complete.length !== text.length) await truncate(path, Buffer.byteLength(complete));
    const entries: JournalEntry[] = [];
    const lines = complete.split("\n");
    for (let i = 0; i < lines.length - 1; i++) {
      try {
        entries.push(JSON.parse(lines[i]!) as JournalEntry);
      } catch {
        throw new RuntimeError("OPTIONS_INVALID", `the journal's line ${i + 1} is not JSON: it was not written by this journal; move the file aside`);
      }
    }
    return new FileJournal(await open(path, "a"), entries);
  }

  /** Appends one entry and syncs it to disk; entries are written in the order append() was called. */
  append(entry: JournalEntry): Promise<void> {
    if (this.closed) return Promise.reject(new RuntimeError("OPTIONS_INVALID", "the journal is closed"));
    const line = `${canonicalJson(entry)}\n`;
    const next = this.tail.then(async () => {
      await this.handle.appendFile(line, "utf8");
      await this.handle.datasync();
    });
    // A failed write fails its own caller; later entries still try.
    this.tail = next.catch(() => undefined);
    return next;
  }

  record(receipt: Receipt): Promise<void> {
    return this.append({ type: "receipt", receipt });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.handle.close();
  }
}
