// @ts-check
// The sandbox channel's framing, for both ends: the host (runtime/sandbox/exchange.ts, sandbox-child.ts) imports this
// file, and the child, which may read only this folder, imports it from beside bootstrap.mjs. Each message is a 4-byte
// big-endian length followed by that many bytes of UTF-8 JSON. The length is checked against the cap before a byte of
// the body is kept, so a flood costs the reader at most one cap of memory.

const HEADER_BYTES = 4;

/** One frame holding `text`, in a single allocation. */
export function encodeFrame(/** @type {string} */ text) {
  const length = Buffer.byteLength(text, "utf8");
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(text, HEADER_BYTES, "utf8");
  return frame;
}

export class FrameTooLarge extends Error {
  /** @param {number} bytes @param {number} maxBytes */
  constructor(bytes, maxBytes) {
    super(`a frame of ${bytes} bytes is over the ${maxBytes}-byte limit`);
    /** @readonly */
    this.bytes = bytes;
    /** @readonly */
    this.maxBytes = maxBytes;
  }
}

/** Cuts a byte stream into frame texts. */
export class FrameReader {
  /** @type {Buffer[]} */
  #chunks = [];
  #buffered = 0;
  #maxBytes;

  /** @param {number} maxBytes */
  constructor(maxBytes) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes of an incomplete frame still waiting for the rest. */
  get pending() {
    return this.#buffered;
  }

  /**
   * The complete frames `chunk` finishes, in order; throws FrameTooLarge as soon as a header announces one over the cap.
   * @param {Buffer} chunk
   * @returns {string[]}
   */
  push(chunk) {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    /** @type {string[]} */
    const texts = [];
    for (;;) {
      if (this.#buffered < HEADER_BYTES) return texts;
      if (/** @type {Buffer} */ (this.#chunks[0]).length < HEADER_BYTES) this.#flatten();
      const length = /** @type {Buffer} */ (this.#chunks[0]).readUInt32BE(0);
      if (length > this.#maxBytes) throw new FrameTooLarge(length, this.#maxBytes);
      // A large frame arrives in many chunks: they are joined once, when the last one is in.
      if (this.#buffered < HEADER_BYTES + length) return texts;
      const head = this.#chunks.length === 1 ? /** @type {Buffer} */ (this.#chunks[0]) : this.#flatten();
      texts.push(head.toString("utf8", HEADER_BYTES, HEADER_BYTES + length));
      const rest = head.subarray(HEADER_BYTES + length);
      this.#chunks = rest.length === 0 ? [] : [rest];
      this.#buffered = rest.length;
    }
  }

  /** @returns {Buffer} */
  #flatten() {
    const all = Buffer.concat(this.#chunks, this.#buffered);
    this.#chunks = [all];
    return all;
  }
}
