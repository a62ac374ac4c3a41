import type { CaveLock, LockedResult } from "../../src/contract/lock.js";
import { error, type Diagnostic } from "../diagnostics.js";
import type { AnalyseResult, EvaluatedTool, EvaluateResult } from "../types.js";
import { planResult } from "./planner.js";
import { REGISTRY } from "./registry.js";

export { planResult, type PlanOutcome, type PlanProblem } from "./planner.js";
export { sizeBound } from "./bound.js";

/** A tool's locked result: what it asked for and the plan. Only called once checkResults found no problem. */
export function lockResult(tool: EvaluatedTool, outDir: string): LockedResult {
  const planned = planResult(tool.name, tool.result, tool.output?.jsonSchema ?? null, outDir);
  if (!planned.ok)
    throw new Error(`internal: result plan of tool ${tool.name} has problems that checkResults should have reported`);
  return { requested: tool.result, plan: planned.plan };
}

/** Every result policy that cannot be planned, as a diagnostic at the tool's definition. */
export function checkResults(evaluated: EvaluateResult, analysed: AnalyseResult, outDir: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of evaluated.tools) {
    const planned = planResult(tool.name, tool.result, tool.output?.jsonSchema ?? null, outDir);
    if (planned.ok) continue;
    const at =
      analysed.tools.find((t) => t.module === tool.module && t.exportName === tool.exportName) ??
      analysed.tools.find((t) => t.name === tool.name);
    const location = at ? { file: at.file, line: at.line, column: at.column } : { file: tool.module };
    for (const problem of planned.problems) out.push(error(problem.code, problem.message, problem.hint, location));
  }
  return out;
}

/** The staged transform modules the lock's plans pin, by path relative to the root. */
export function transformFiles(lock: CaveLock): Map<string, string> {
  const files = new Map<string, string>();
  for (const tool of Object.values(lock.tools)) {
    const pinned = tool.result.plan.transform;
    if (pinned === null) continue;
    const registered = REGISTRY.find((t) => t.id === pinned.id && t.version === pinned.version);
    if (!registered)
      throw new Error(
        `internal: the lock pins transform ${pinned.id}@${pinned.version}, which the registry does not have`,
      );
    files.set(pinned.module, registered.code);
  }
  return files;
}
