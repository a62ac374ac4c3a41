import type { CallState, Failure } from "./state.js";

/**
 * Stage 2, budget: every call that gets here counts against its run's call budget, nested calls
 * included; a run past its wall-time budget starts no new call (a running call is cut at the
 * budget's end by the deadline stage).
 */
export function budget(state: CallState): Failure | undefined {
  const { run } = state;
  if (run.calls >= run.budget.maxCalls) {
    return { code: "BUDGET_EXCEEDED", message: `run ${run.id} has used its budget of ${run.budget.maxCalls} calls (nested calls included), so "${state.name}" was not run; start a new run or raise budget.maxCalls` };
  }
  const elapsed = run.elapsedMs(state.startedAt);
  if (elapsed >= run.budget.maxWallMs) {
    return { code: "BUDGET_EXCEEDED", message: `run ${run.id} has used its wall-time budget of ${run.budget.maxWallMs} ms, so "${state.name}" was not run; start a new run or raise budget.maxWallMs` };
  }
  run.calls += 1;
  return undefined;
}
