// @ts-check
// The per-call tail of a sandboxed tool's console output (issue 11, item 8): what execute wrote to stdout and stderr,
// in the order written, the last LOG_TAIL_BYTES of it, sent back with the call's answer for the outcome's `logs`.
// It sees every write, those the output cap (output.mjs) drops from the pipe included: the tail is the end of what the
// tool wrote, wherever the cap cut. Writes are attributed to a call by AsyncLocalStorage, so output a previous call left
// behind (a timer, a stream callback) never appears in another call's tail on a warm child.

import { AsyncLocalStorage } from "node:async_hooks";

/** The bytes of output an outcome's `logs` keeps: the last 8 KiB (docs/runtime.md, "Logs and stacks"). */
export const LOG_TAIL_BYTES = 8192;

/** Keeps the tail of one call at a time. */
export class LogTail {
  /** @type {AsyncLocalStorage<object>} */
  #calls = new AsyncLocalStorage();
  /** @type {object | undefined} */
  #current;
  /** @type {Buffer[]} */
  #chunks = [];
  #kept = 0;
  #total = 0;

  /** Runs `work` as call `call`: what it writes from now on, and what anything it starts writes later, is this call's. @template T @param {object} call @param {() => T} work @returns {T} */
  run(call, work) {
    this.#current = call;
    this.#chunks = [];
    this.#kept = 0;
    this.#total = 0;
    return this.#calls.run(call, work);
  }

  /** A write to stdout or stderr (output.mjs's observer). @param {unknown} chunk @param {unknown} encoding */
  observe(chunk, encoding) {
    const call = this.#calls.getStore();
    if (call === undefined || call !== this.#current) return;
    let bytes;
    let size;
    try {
      if (typeof chunk === "string") {
        const charset = typeof encoding === "string" && Buffer.isEncoding(encoding) ? encoding : "utf8";
        size = Buffer.byteLength(chunk, charset);
        // A flood is not encoded whole: the last LOG_TAIL_BYTES + 1 characters hold at least the last LOG_TAIL_BYTES
        // bytes (a character is one byte or more), and the first of them, perhaps half a surrogate pair, is cut below.
        bytes = Buffer.from(
          chunk.length > LOG_TAIL_BYTES + 1 && charset === "utf8" ? chunk.slice(-(LOG_TAIL_BYTES + 1)) : chunk,
          charset,
        );
      } else if (chunk instanceof Uint8Array) {
        size = chunk.byteLength;
        bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
    } catch {
      bytes = undefined;
    }
    if (bytes === undefined || size === undefined || size === 0) return;
    this.#total += size;
    // Copied (the caller may reuse its buffer); only the last LOG_TAIL_BYTES of a large chunk are worth keeping.
    const kept = Buffer.from(bytes.subarray(Math.max(0, bytes.length - LOG_TAIL_BYTES)));
    this.#chunks.push(kept);
    this.#kept += kept.length;
    if (this.#kept > 2 * LOG_TAIL_BYTES) {
      const joined = Buffer.concat(this.#chunks).subarray(-LOG_TAIL_BYTES);
      this.#chunks = [joined];
      this.#kept = joined.length;
    }
  }

  /**
   * Ends the call's tail and returns it as text, or undefined when the call wrote nothing. Past the cap it starts with
   * a line saying how many bytes are not shown; a character cut by the cap is dropped, not shown broken.
   * @param {object} call
   */
  take(call) {
    if (call !== this.#current) return undefined;
    this.#current = undefined;
    if (this.#total === 0) return undefined;
    let tail = Buffer.concat(this.#chunks).subarray(-LOG_TAIL_BYTES);
    this.#chunks = [];
    if (this.#total <= LOG_TAIL_BYTES) return tail.toString("utf8");
    let start = 0;
    while (start < tail.length && start < 3 && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
    tail = tail.subarray(start);
    return `[cave: ${this.#total - tail.length} earlier bytes of output not shown]\n${tail.toString("utf8")}`;
  }
}
