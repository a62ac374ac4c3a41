import { error, type Diagnostic } from "../diagnostics.js";
import type { AnalyseResult, EvaluatedTool } from "../types.js";

/**
 * Locks refuse opaque validator identity (contract, "Schemas"): a Standard Schema validator can close over
 * code and state the lock cannot see, so the author must name its semantics with a hash.
 */
export function checkOpaqueValidators(tools: readonly EvaluatedTool[], analysed: AnalyseResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of tools) {
    if (tool.schemaSemanticsSHA256 !== null) continue;
    const opaque = (["input", "output"] as const).flatMap((side) => {
      const schema = tool[side];
      return schema?.kind === "standard" ? [`${side} (${schema.vendor})`] : [];
    });
    if (opaque.length === 0) continue;
    const at = analysed.tools.find((found) => found.module === tool.module && found.exportName === tool.exportName);
    out.push(
      error(
        "CAVE5007",
        `tool "${tool.name}": ${opaque.join(" and ")} ${opaque.length > 1 ? "are Standard Schema validators" : "is a Standard Schema validator"} without schemaSemanticsSHA256, and locks refuse opaque validator identity`,
        'Add schemaSemanticsSHA256: "<64 lowercase hex>" to the tool: the SHA-256 of the validator\'s code, its dependencies and any state it captures, for example `cat src/schemas/order.ts package-lock.json | sha256sum` (or `shasum -a 256`). Change it whenever any of those change.',
        { file: at?.file ?? tool.module, line: at?.line ?? null, column: at?.column ?? null },
      ),
    );
  }
  return out;
}
