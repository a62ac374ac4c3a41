import type { Receipt } from "../../src/contract/outcome.js";

/**
 * Where receipts go. The runtime awaits record() before the call's outcome is returned, so a durable
 * journal can make "recorded" a precondition of "returned". A sink that throws makes the call reject:
 * losing a receipt silently would defeat the journal.
 */
export interface ReceiptSink {
  record(receipt: Receipt): void | Promise<void>;
}

/** A sink that keeps receipts in memory, in the order calls finished (for tests, the CLI and short scripts). */
export class MemoryReceiptSink implements ReceiptSink {
  readonly receipts: Receipt[] = [];

  record(receipt: Receipt): void {
    this.receipts.push(receipt);
  }
}
