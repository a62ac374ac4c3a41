// @ts-check
// The sandbox channel's framing, child side (the host's twin is runtime/sandbox/frames.ts): each
// message is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON.

const HEADER_BYTES = 4;

/** One frame holding `text`, in a single allocation. */
export function encodeFrame(/** @type {string} */ text) {
  const length = Buffer.byteLength(text, "utf8");
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(text, HEADER_BYTES, "utf8");
  return frame;
}

/** Cuts a byte stream into frame texts; a frame longer than `maxBytes` is refused before it is buffered. */
export class FrameReader {
  /** @param {number} maxBytes */
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
    /** @type {Buffer[]} */
    this.chunks = [];
    this.buffered = 0;
  }

  /** @param {Buffer} chunk @returns {string[]} */
  push(chunk) {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    /** @type {string[]} */
    const texts = [];
    for (;;) {
      if (this.buffered < HEADER_BYTES) return texts;
      if (/** @type {Buffer} */ (this.chunks[0]).length < HEADER_BYTES) this.flatten();
      const length = /** @type {Buffer} */ (this.chunks[0]).readUInt32BE(0);
      if (length > this.maxBytes) throw new Error(`a frame of ${length} bytes is over the ${this.maxBytes}-byte limit`);
      if (this.buffered < HEADER_BYTES + length) return texts;
      const head = this.chunks.length === 1 ? /** @type {Buffer} */ (this.chunks[0]) : this.flatten();
      texts.push(head.toString("utf8", HEADER_BYTES, HEADER_BYTES + length));
      const rest = head.subarray(HEADER_BYTES + length);
      this.chunks = rest.length === 0 ? [] : [rest];
      this.buffered = rest.length;
    }
  }

  /** @returns {Buffer} */
  flatten() {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}
