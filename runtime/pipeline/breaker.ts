import type { RuntimeCode } from "../../src/contract/codes/runtime.js";
import type { CallState, Failure } from "./state.js";

/** Outcomes that say the tool itself misbehaved; only these open a breaker. */
const TOOL_FAILURES: ReadonlySet<RuntimeCode> = new Set(["TOOL_ERROR", "TIMEOUT", "OUTPUT_INVALID", "OUTPUT_NOT_SERIALISABLE", "OUTPUT_TOO_LARGE", "TOOL_CRASHED", "PROTOCOL_ERROR", "RESOURCE_EXHAUSTED", "SANDBOX_DENIED", "NETWORK_REFUSED"]);

/** Stage 3, breaker: a tool whose breaker is open is refused without running. */
export function breakerGate(state: CallState): Failure | undefined {
  const verdict = state.engine.breakers.check(state.name);
  if (!verdict.pass) {
    const when = verdict.retryInMs > 0 ? `for another ${verdict.retryInMs} ms` : "while its trial call runs";
    return { code: "BREAKER_OPEN", message: `tool "${state.name}" failed ${state.engine.options.breaker.failureThreshold} times in a row; its circuit breaker refuses calls ${when}` };
  }
  state.breakerTrial = verdict.trial;
  return undefined;
}

/** After the call: tell the breaker how the tool did (refusals before it ran say nothing about its health). */
export function recordBreaker(state: CallState, code: RuntimeCode | "ok"): void {
  if (state.breakerTrial === undefined) return;
  const verdict = code === "ok" ? "success" : TOOL_FAILURES.has(code) ? "failure" : "neutral";
  state.engine.breakers.record(state.name, state.breakerTrial, verdict);
}
