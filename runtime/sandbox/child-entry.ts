import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

let cached: { readonly dir: string; readonly bootstrap: string } | undefined;

/**
 * The child's entry script and the folder it imports from (its only other readable path besides the
 * bundle). It sits in child/ beside this file: runtime/sandbox/child/ when the runtime runs from
 * source (vitest), dist/runtime/sandbox/child/ in the package (tsconfig.build.json copies the .mjs
 * files). Real paths, because the permission model compares the paths Node actually opens.
 */
export function childEntry(): { readonly dir: string; readonly bootstrap: string } {
  if (cached === undefined) {
    const dir = realpathSync(fileURLToPath(new URL("./child/", import.meta.url)));
    cached = { dir, bootstrap: realpathSync(fileURLToPath(new URL("./child/bootstrap.mjs", import.meta.url))) };
  }
  return cached;
}
