import type { CallState, Failure } from "./state.js";

/**
 * Stage 5, effect gate: fixture mode runs read tools only, and a speculative call may only run a
 * speculable (read) tool. Refused before any of the tool's code, its bundle included, is loaded.
 */
export function effectGate(state: CallState): Failure | undefined {
  const tool = state.tool!;
  if (state.engine.options.mode === "fixture" && tool.effect !== "read") {
    return {
      code: "EFFECT_BLOCKED",
      message: `tool "${state.name}" has effect ${tool.effect} and fixture mode runs read tools only, so it was not run; use mode "host" to execute effects`,
    };
  }
  if (state.options.speculative === true && !tool.speculable) {
    return {
      code: "EFFECT_BLOCKED",
      message: `tool "${state.name}" has effect ${tool.effect} and only read tools may run speculatively, so it was not run; call it without speculative`,
    };
  }
  return undefined;
}
