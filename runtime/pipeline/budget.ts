import type { CallState, Failure } from "./state.js";

/**
 * Stage 1, budget: every attempt counts against its run's call budget, nested calls included, before
 * anything else looks at it, so calls refused later (an unknown or undeclared tool, invalid arguments,
 * a settled parent) are counted too: a tool cannot make unbounded refused calls. A run past its
 * wall-time budget starts no new call (a running call is cut at the budget's end by the deadline stage).
 * A nested call refused here also ends its parent (BUDGET_EXCEEDED): the run can make no more calls,
 * and a parent that kept asking would only add refusals (a sandboxed parent's process is killed).
 */
export function budget(state: CallState): Failure | undefined {
  const { run } = state;
  let refused: Failure | undefined;
  if (run.calls >= run.budget.maxCalls) {
    refused = {
      code: "BUDGET_EXCEEDED",
      message: `run ${run.id} has used its budget of ${run.budget.maxCalls} calls (nested calls and refused calls included), so "${state.name}" was not run; start a new run or raise budget.maxCalls`,
    };
  } else if (run.elapsedMs(state.startedAt) >= run.budget.maxWallMs) {
    refused = {
      code: "BUDGET_EXCEEDED",
      message: `run ${run.id} has used its wall-time budget of ${run.budget.maxWallMs} ms, so "${state.name}" was not run; start a new run or raise budget.maxWallMs`,
    };
  }
  if (refused === undefined) {
    run.calls += 1;
    return undefined;
  }
  state.parent?.frame?.cut(`its nested call of "${state.name}" was refused because run ${run.id} has used its budget`);
  return refused;
}
