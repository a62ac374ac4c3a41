import type { RuntimeCode } from "../../src/contract/codes/runtime.js";
import { Breakers } from "../run/breaker-state.js";
import type { CallState, Failure } from "./state.js";

/** Outcomes that say the tool itself misbehaved; only these open a breaker. */
const TOOL_FAILURES: ReadonlySet<RuntimeCode> = new Set([
  "TOOL_ERROR",
  "TIMEOUT",
  "OUTPUT_INVALID",
  "OUTPUT_NOT_SERIALISABLE",
  "OUTPUT_TOO_LARGE",
  "OUTPUT_TOO_DEEP",
  "TOOL_CRASHED",
  "PROTOCOL_ERROR",
  "RESOURCE_EXHAUSTED",
  "SANDBOX_DENIED",
  "NETWORK_REFUSED",
]);

/**
 * Stage 3, breaker: a tool whose breaker is open is refused without running. Two scopes: the run's own
 * breaker (its consecutive failures) and the runtime's, shared by every run, which opens only after
 * failures in failureThreshold different runs in a row (runtime/run/breaker-state.ts).
 */
export function breakerGate(state: CallState): Failure | undefined {
  const { run, engine, name } = state;
  const threshold = engine.options.breaker.failureThreshold;
  const own = run.breakers?.check(name);
  if (own !== undefined && !own.pass) {
    return {
      code: "BREAKER_OPEN",
      message: `tool "${name}" failed ${threshold} times in a row in run ${run.id}; its circuit breaker refuses it in this run ${when(own.retryInMs)}`,
    };
  }
  const shared = engine.breakers.check(name);
  if (!shared.pass) {
    // The run's trial (if it was given one) did not run: give it back.
    if (own?.trial === true) run.breakers!.record(name, true, "neutral", run.id);
    return {
      code: "BREAKER_OPEN",
      message: `tool "${name}" failed in ${threshold} different runs in a row; its circuit breaker refuses it in every run ${when(shared.retryInMs)}`,
    };
  }
  state.breakerTrial = shared.trial;
  state.runBreakerTrial = own?.trial ?? false;
  return undefined;
}

function when(retryInMs: number): string {
  return retryInMs > 0 ? `for another ${retryInMs} ms` : "while its trial call runs";
}

/** After the call: tell both breakers how the tool did (refusals before it ran say nothing about its health). */
export function recordBreaker(state: CallState, code: RuntimeCode | "ok"): void {
  if (state.breakerTrial === undefined) return;
  const verdict = code === "ok" ? "success" : TOOL_FAILURES.has(code) ? "failure" : "neutral";
  const { run, engine, name } = state;
  engine.breakers.record(name, state.breakerTrial, verdict, run.id);
  // A run's own breakers exist from its first tool failure on: a run that never fails pays nothing here.
  if (run.breakers === undefined && verdict === "failure") run.breakers = new Breakers(engine.options.breaker, false);
  run.breakers?.record(name, state.runBreakerTrial!, verdict, run.id);
}
