import { readFile } from "node:fs/promises";
import type { PrivateCopy } from "../loading/private-copy.js";
import { mapStack } from "./map-stack.js";
import { BundleMap } from "./source-map.js";

/**
 * Maps the stacks of one runtime's tool errors (both sandbox modes: a sandboxed child imports the same private copy).
 * A bundle's map is read from the private copy, whose files are the verified bytes, and decoded the first time one of
 * its frames is mapped; a failure to read it only leaves that frame unmapped.
 */
export class StackMapper {
  private readonly maps = new Map<string, Promise<BundleMap | undefined>>();

  constructor(
    private readonly copy: () => PrivateCopy | undefined,
    private readonly packages: () => ReadonlyArray<{ readonly dir: string; readonly path: string }>,
  ) {}

  map(raw: string): Promise<string[]> {
    const copy = this.copy();
    // The deepest package first: a nested install is named by its own path, not as a file of its parent.
    const packages = [...this.packages()].sort((a, b) => b.dir.length - a.dir.length);
    return mapStack(raw, {
      copyDirs: copy === undefined ? [] : [copy.dir],
      packages,
      mapOf: (path) => this.mapOf(copy, path),
    });
  }

  private mapOf(copy: PrivateCopy | undefined, path: string): Promise<BundleMap | undefined> {
    if (copy === undefined || !path.endsWith(".mjs")) return Promise.resolve(undefined);
    const key = `${copy.dir}\0${path}`;
    let pending = this.maps.get(key);
    if (pending === undefined) {
      pending = readFile(copy.pathOf(path), "utf8").then(
        (code) => BundleMap.fromBundle(code),
        () => undefined,
      );
      this.maps.set(key, pending);
    }
    return pending;
  }
}
