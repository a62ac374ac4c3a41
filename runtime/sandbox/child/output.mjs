// @ts-check
// A sandboxed tool's stdout and stderr, bounded per request in the child. The host drains the pipe whatever arrives
// (sandbox-child.ts keeps a bounded tail), but a flood still costs time to pass through it: 128 MB take seconds on a
// loaded machine, and an answer that waited for them would miss its deadline. Past the cap, writes are dropped here,
// once noted, so an answer is never held up by more than the cap's worth of output.

/** Bytes a request may write to stdout and stderr together before the rest of its output is dropped. */
export const OUTPUT_CAP_BYTES = 1 << 20;

/**
 * Wraps process.stdout.write and process.stderr.write (after the deny layer made both streams).
 * `reset()` starts a request's budget; `flushed()` resolves once what was written has left this process.
 * `observe` sees every write, in order, before the cap (the call's log tail, log-tail.mjs).
 * @param {(chunk: unknown, encoding: unknown) => void} [observe]
 */
export function installOutputCap(observe) {
  let written = 0;
  let noted = false;
  const streams = [process.stdout, process.stderr];
  /** The streams' own writes, for the flush (a capped write past the budget would answer at once). */
  const writes = new Map();
  for (const stream of streams) {
    const write = stream.write.bind(stream);
    writes.set(stream, write);
    /** @param {any} chunk @param {any} [encoding] @param {any} [callback] */
    stream.write = function cappedWrite(chunk, encoding, callback) {
      const done = typeof encoding === "function" ? encoding : callback;
      observe?.(chunk, encoding);
      const size =
        typeof chunk === "string"
          ? Buffer.byteLength(chunk, typeof encoding === "string" ? /** @type {BufferEncoding} */ (encoding) : "utf8")
          : (chunk?.byteLength ?? 0);
      if (written + size <= OUTPUT_CAP_BYTES) {
        written += size;
        return write(chunk, encoding, callback);
      }
      written = OUTPUT_CAP_BYTES + 1;
      if (!noted) {
        noted = true;
        write(`\n[cave: this call wrote over ${OUTPUT_CAP_BYTES} bytes to stdout and stderr; the rest is dropped]\n`);
      }
      if (typeof done === "function") queueMicrotask(() => done(null));
      return true;
    };
  }
  return {
    reset() {
      written = 0;
      noted = false;
    },
    async flushed() {
      for (const stream of streams) {
        if (stream.writableLength > 0 && !stream.destroyed)
          await new Promise((resolve) => writes.get(stream)("", () => resolve(undefined)));
      }
    },
  };
}
