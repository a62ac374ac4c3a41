import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

let cached: { readonly dir: string; readonly bootstrap: string } | undefined;

/**
 * The sandbox child's entry script and the folder it imports from (its only other readable path besides the bundle):
 * sandbox/child/ beside this file. Real paths, because the permission model compares the paths Node actually opens.
 *
 * Why this module sits at the runtime's top level: it finds the folder from import.meta.url, and at this level that
 * URL is in the same folder in every form the runtime runs in: runtime/ from source (vitest), dist/runtime/ as tsc
 * emits it, and dist/runtime/bundle.cjs, whose modules all see the bundle's URL (scripts/bundle-runtime.mjs). So the
 * bundle holds this module like any other, and the entry imports no module file of the runtime at start-up.
 */
export function childEntry(): { readonly dir: string; readonly bootstrap: string } {
  if (cached === undefined) {
    const dir = realpathSync(fileURLToPath(new URL("./sandbox/child/", import.meta.url)));
    cached = { dir, bootstrap: realpathSync(fileURLToPath(new URL("./sandbox/child/bootstrap.mjs", import.meta.url))) };
  }
  return cached;
}
