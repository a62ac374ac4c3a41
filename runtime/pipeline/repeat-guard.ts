import type { RepeatHolder } from "../run/repeat-index.js";
import type { CallState, Failure } from "./state.js";

/**
 * Stage 4, repeat guard. A call is stopped when an earlier call in the same run went to the same
 * tool with canonically equal arguments (RFC 8785: key order and number spelling do not matter) and
 * either is still running or was dispatched (its input was valid and it was handed to its
 * dispatcher), whatever its outcome. Calls refused before dispatch (unknown tool, bad input, budget,
 * breaker, effect gate, a stopped repeat) do not count. Tools locked with allowRepeat are never stopped.
 */
export function repeatGuard(state: CallState): Failure | undefined {
  if (state.tool!.allowRepeat) return undefined;
  const entry = state.run.repeats.claim(state.name, state.args$!, state.callId);
  if (entry.callId !== state.callId) {
    return {
      code: "REPEAT_STOPPED",
      message: `tool "${state.name}" was already called with the same arguments in this run (${named(entry)}); use that result or change the arguments (a polling tool may set allowRepeat: true)`,
    };
  }
  state.repeat = entry;
  return undefined;
}

/** The earlier call as the message may name it: a receipt only once it was recorded. */
function named(earlier: RepeatHolder): string {
  switch (earlier.receipt) {
    case "written":
      return `receipt ${earlier.callId}`;
    case "running":
      return `call ${earlier.callId}, still running`;
    case "lost":
      return `call ${earlier.callId}, whose receipt the receipt sink failed to record`;
  }
}

/** After the call: a call that ended before dispatch gives its key back. */
export function releaseRepeat(state: CallState): void {
  if (state.repeat !== undefined && !state.dispatched)
    state.run.repeats.release(state.name, state.args$!, state.repeat);
}
