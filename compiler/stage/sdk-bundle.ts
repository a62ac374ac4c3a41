import * as esbuild from "esbuild";
import type { Diagnostic } from "../diagnostics.js";
import { toDiagnostics } from "./messages.js";
import { fromPrettyPath } from "./plugin.js";
import { place, type Roots } from "./placement.js";
import { rewritePathLines } from "./rewrite.js";

export interface SdkBundle {
  /** The SDK as one ESM module, which every `import "cave"` of a staged graph resolves to. */
  readonly code: string;
  /** Real paths of every input file of the SDK's graph. */
  readonly files: readonly string[];
}

/**
 * Bundles the SDK once per build. Every tool module imports it, and esbuild links each entry point's
 * whole module graph separately: one pre-linked SDK module instead of its ~200 source files cuts staging
 * of 1,000 modules several times over. The bundles still carry the SDK's code; its input files are
 * recorded in each graph's `files`.
 */
export async function bundleSdk(roots: Roots, entry: string): Promise<{ sdk: SdkBundle | undefined; diagnostics: Diagnostic[] }> {
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: [entry],
      absWorkingDir: roots.sdk,
      outfile: "cave-sdk.mjs",
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
  } catch (thrown) {
    const failure = thrown as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw thrown;
    return { sdk: undefined, diagnostics: toDiagnostics(failure.errors, "error", roots.sdk, roots) };
  }
  const files = Object.keys(result.metafile.inputs).map((pretty) => fromPrettyPath(roots.sdk, pretty));
  // Only the keys of CommonJS wrappers survive into the staged bundles (comments do not); they are
  // labels, so the plain placement id is enough here.
  const renames = new Map<string, string>();
  for (const pretty of Object.keys(result.metafile.inputs)) {
    const placement = place(fromPrettyPath(roots.sdk, pretty), roots);
    if (placement.kind !== "outside" && placement.id !== pretty) renames.set(pretty, placement.id);
  }
  const output = result.outputFiles[0];
  if (!output) throw new Error("esbuild returned no output for the SDK");
  return { sdk: { code: rewritePathLines(output.text, renames), files: [...files].sort() }, diagnostics: [] };
}
