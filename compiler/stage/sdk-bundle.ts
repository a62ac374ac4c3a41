import * as esbuild from "esbuild";
import type { Diagnostic } from "../diagnostics.js";
import { REQUIRE_SHIM } from "./bundle-file.js";
import { toDiagnostics } from "./messages.js";
import { fromPrettyPath } from "./plugin.js";
import { place, type Roots } from "./placement.js";
import { rewritePathLines } from "./rewrite.js";

export interface SdkBundle {
  /**
   * Prepended to every bundle: the require shim, then the SDK as one `var __caveSdk = (() => {...})()`.
   * It is built once and concatenated, not re-linked and re-printed by esbuild for every entry point:
   * that is what made staging 1,000 modules slow (esbuild links each entry's whole graph on its own).
   * The evaluator relies on this shape: `${REQUIRE_SHIM}\n` then code whose only module-scope binding is
   * `var __caveSdk` (esbuild's IIFE form), so it can evaluate the SDK once and give each bundle's body that value.
   */
  readonly prelude: string;
  /** The module every `import "cave"` resolves to: it re-exports the SDK's exports from `__caveSdk`. */
  readonly facade: string;
  /** Real paths of every input file of the SDK's graph. */
  readonly files: readonly string[];
}

/** The name of the SDK's value in a bundle's module scope. esbuild keeps user symbols off it, since the facade refers to it unbound. */
export const SDK_GLOBAL = "__caveSdk";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Result = esbuild.BuildResult<{ write: false; metafile: true }>;

/** Bundles the SDK (the package's src/index.ts and what it imports) once per build. */
export async function bundleSdk(roots: Roots, entry: string): Promise<{ sdk: SdkBundle | undefined; diagnostics: Diagnostic[] }> {
  const common = { entryPoints: [entry], absWorkingDir: roots.sdk, bundle: true, platform: "node", target: "node20", write: false, metafile: true, logLevel: "silent" } satisfies esbuild.BuildOptions;
  let esm: Result;
  let iife: Result;
  try {
    // The ESM build only tells the SDK's export names; the IIFE build is the code.
    [esm, iife] = await Promise.all([
      esbuild.build({ ...common, format: "esm", outfile: "cave-sdk.mjs" }),
      esbuild.build({ ...common, format: "iife", globalName: SDK_GLOBAL, outfile: "cave-sdk.js" }),
    ]);
  } catch (thrown) {
    const failure = thrown as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw thrown;
    return { sdk: undefined, diagnostics: toDiagnostics(failure.errors, "error", roots.sdk, roots) };
  }
  const exportNames = Object.values(esm.metafile.outputs).flatMap((output) => output.exports).sort();
  const named = exportNames.filter((name) => name !== "default");
  const bad = named.filter((name) => !IDENTIFIER.test(name));
  if (bad.length > 0) throw new Error(`the SDK exports names that are not identifiers: ${bad.join(", ")}`);
  const facade = [
    ...(named.length > 0 ? [`export const { ${named.join(", ")} } = ${SDK_GLOBAL};`] : []),
    ...(exportNames.includes("default") ? [`export default ${SDK_GLOBAL}.default;`] : []),
  ].join("\n");

  const inputs = Object.keys(iife.metafile.inputs);
  // Comments and CommonJS wrapper keys name the SDK's files relative to the package; make them canonical.
  const renames = new Map<string, string>();
  for (const pretty of inputs) {
    const placement = place(fromPrettyPath(roots.sdk, pretty), roots);
    if (placement.kind !== "outside" && placement.id !== pretty) renames.set(pretty, placement.id);
  }
  const code = iife.outputFiles[0]?.text;
  if (code === undefined) throw new Error("esbuild returned no output for the SDK");
  const prelude = `${REQUIRE_SHIM}\n${rewritePathLines(code, renames)}`;
  return { sdk: { prelude, facade, files: inputs.map((pretty) => fromPrettyPath(roots.sdk, pretty)).sort() }, diagnostics: [] };
}
