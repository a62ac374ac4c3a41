import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { sha256 } from "../../src/contract/hash.js";
import type { LockedTransform } from "../../src/contract/lock.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";
import { failure, type ResultFailure } from "./failure.js";

/** A staged transform module after its bytes matched the lock. */
export interface LoadedTransform {
  readonly id: string;
  readonly version: number;
  readonly lossless: boolean;
  encode(value: unknown): string;
  decode?(text: string): unknown;
}

/**
 * Loads transforms by their pinned hash. The file is read and hashed on every use (a few KB), so a
 * module changed after start-up is refused at once; it is imported only once per hash, from the same
 * bytes that were hashed (a data: URL), so what runs is exactly what was checked.
 */
export class TransformLoader {
  private readonly imported = new Map<string, Promise<LoadedTransform | ResultFailure>>();

  constructor(private readonly root: string) {}

  async load(pinned: LockedTransform): Promise<LoadedTransform | ResultFailure> {
    const name = `${pinned.id}@${pinned.version}`;
    let bytes: Buffer;
    try {
      bytes = await readFile(resolve(this.root, pinned.module));
    } catch (thrown) {
      return failure(
        "TRANSFORM_MISMATCH",
        `transform ${name} could not be read from ${pinned.module} (${thrownText(thrown)}); deploy the build folder written with this lock`,
      );
    }
    const actual = sha256(bytes);
    if (actual !== pinned.sha256) {
      return failure(
        "TRANSFORM_MISMATCH",
        `transform ${name} at ${pinned.module} has sha256 ${actual}, but the lock pins ${pinned.sha256}; deploy the build folder written with this lock`,
      );
    }
    let entry = this.imported.get(actual);
    if (entry === undefined) {
      entry = importVerified(pinned, bytes);
      this.imported.set(actual, entry);
    }
    return entry;
  }
}

async function importVerified(pinned: LockedTransform, bytes: Buffer): Promise<LoadedTransform | ResultFailure> {
  const name = `${pinned.id}@${pinned.version}`;
  let module: Record<string, unknown>;
  try {
    module = (await import(`data:text/javascript;base64,${bytes.toString("base64")}`)) as Record<string, unknown>;
  } catch (thrown) {
    return failure(
      "TRANSFORM_MISMATCH",
      `transform ${name} does not load (${thrownText(thrown)}); rebuild with cave build`,
    );
  }
  if (
    module.id !== pinned.id ||
    module.version !== pinned.version ||
    module.lossless !== pinned.lossless ||
    typeof module.encode !== "function"
  ) {
    return failure(
      "TRANSFORM_MISMATCH",
      `transform module ${pinned.module} does not export id ${JSON.stringify(pinned.id)}, version ${pinned.version}, lossless ${pinned.lossless} and encode(); rebuild with cave build`,
    );
  }
  return module as unknown as LoadedTransform;
}
