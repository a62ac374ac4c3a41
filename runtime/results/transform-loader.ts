import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { sha256 } from "../../src/contract/hash.js";
import type { LockedTransform } from "../../src/contract/lock.js";
import { describe, failure, type ResultFailure } from "./failure.js";

/** A staged transform module after its bytes matched the lock. */
export interface LoadedTransform {
  readonly id: string;
  readonly version: number;
  readonly lossless: boolean;
  encode(value: unknown): string;
  decode?(text: string): unknown;
}

/**
 * Loads transforms by their pinned hash: the bytes are read once, checked against the lock and
 * imported from those same bytes (a data: URL), so what runs is exactly what was hashed.
 */
export class TransformLoader {
  private readonly loaded = new Map<string, Promise<LoadedTransform | ResultFailure>>();

  constructor(private readonly root: string) {}

  load(pinned: LockedTransform): Promise<LoadedTransform | ResultFailure> {
    let entry = this.loaded.get(pinned.sha256);
    if (entry === undefined) {
      entry = this.read(pinned);
      this.loaded.set(pinned.sha256, entry);
      // A failure is not cached: a redeployed build folder may fix it.
      void entry.then((got) => {
        if ("ok" in got) this.loaded.delete(pinned.sha256);
      });
    }
    return entry;
  }

  private async read(pinned: LockedTransform): Promise<LoadedTransform | ResultFailure> {
    const name = `${pinned.id}@${pinned.version}`;
    let bytes: Buffer;
    try {
      bytes = await readFile(resolve(this.root, pinned.module));
    } catch (thrown) {
      return failure("TRANSFORM_MISMATCH", `transform ${name} could not be read from ${pinned.module} (${describe(thrown)}); deploy the build folder written with this lock`);
    }
    const actual = sha256(bytes);
    if (actual !== pinned.sha256) {
      return failure("TRANSFORM_MISMATCH", `transform ${name} at ${pinned.module} has sha256 ${actual}, but the lock pins ${pinned.sha256}; deploy the build folder written with this lock`);
    }
    let module: Record<string, unknown>;
    try {
      module = (await import(`data:text/javascript;base64,${bytes.toString("base64")}`)) as Record<string, unknown>;
    } catch (thrown) {
      return failure("TRANSFORM_MISMATCH", `transform ${name} does not load (${describe(thrown)}); rebuild with cave build`);
    }
    if (module.id !== pinned.id || module.version !== pinned.version || module.lossless !== pinned.lossless || typeof module.encode !== "function") {
      return failure("TRANSFORM_MISMATCH", `transform module ${pinned.module} does not export id ${JSON.stringify(pinned.id)}, version ${pinned.version}, lossless ${pinned.lossless} and encode(); rebuild with cave build`);
    }
    return module as unknown as LoadedTransform;
  }
}
