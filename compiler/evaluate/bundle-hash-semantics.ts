import type { EvaluateResult, StageResult } from "../types.js";

/** The code a lock refuses and an ordinary run allows: an opaque validator without schemaSemanticsSHA256. */
export const OPAQUE_WITHOUT_HASH = "CAVE5007";

/**
 * Ordinary runs may use opaque validators without a semantics hash (the contract, "Schemas"): the staged bundle's
 * sha256 (the validator's code as it runs) stands in for this run's lock, and the diagnostic a lock would give is
 * dropped.
 */
export function withBundleHashSemantics(evaluated: EvaluateResult, staged: StageResult): EvaluateResult {
  const tools = evaluated.tools.map((tool) => {
    if (tool.schemaSemanticsSHA256 !== null) return tool;
    const bundle = staged.modules.get(tool.module);
    return bundle === undefined ? tool : { ...tool, schemaSemanticsSHA256: bundle.sha256.replace(/^sha256-/, "") };
  });
  return { ...evaluated, tools, diagnostics: evaluated.diagnostics.filter((d) => d.code !== OPAQUE_WITHOUT_HASH) };
}
