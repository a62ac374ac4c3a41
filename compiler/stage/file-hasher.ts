import { readFile } from "node:fs/promises";
import { sha256 } from "../../src/contract/hash.js";

/** sha256 of files' bytes, each file read once per build however many graphs share it. */
export class FileHasher {
  readonly #hashes = new Map<string, Promise<string>>();

  hash(file: string): Promise<string> {
    let hash = this.#hashes.get(file);
    if (!hash) {
      hash = readFile(file).then((bytes) => sha256(bytes));
      this.#hashes.set(file, hash);
    }
    return hash;
  }
}
