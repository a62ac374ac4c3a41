import { readFile } from "node:fs/promises";
import { sha256 } from "../../src/contract/hash.js";
import { normalisedText } from "./text.js";

/**
 * sha256 of files as committed, each file read once per build however many graphs share it: a text file's line
 * endings and leading BOM are normalised first (text.ts), so a checkout with CRLF endings locks the same hashes.
 */
export class FileHasher {
  readonly #hashes = new Map<string, Promise<string>>();

  hash(file: string): Promise<string> {
    let hash = this.#hashes.get(file);
    if (!hash) {
      hash = readFile(file).then((bytes) => sha256(normalisedText(bytes)));
      this.#hashes.set(file, hash);
    }
    return hash;
  }
}
