import type { RepeatHolder } from "../run/run-state.js";
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
  const run = state.run;
  // The key (tool and the arguments' canonical hash) is worked out only when it can matter: a call is compared only with
  // earlier calls to the same tool, so the first call to a tool in a run is remembered unhashed, and keyed when a
  // second call to that tool comes. A journaled run has every argument hash already (its journal keys calls by it),
  // and keeps every key (docs/decisions.md, "The repeat guard hashes a tool's arguments from its second call in a run").
  if (run.journal === undefined) {
    const pending = run.unkeyed.get(state.name);
    if (pending === undefined && !run.keyedTools.has(state.name)) {
      const holder = { callId: state.callId, receipt: "running" as RepeatHolder["receipt"] };
      run.unkeyed.set(state.name, { holder, args: state.args$! });
      state.repeat = holder;
      return undefined;
    }
    if (pending !== undefined) {
      run.unkeyed.delete(state.name);
      run.repeats.set(`${state.name}\u0000${pending.args.sha256}`, pending.holder);
    }
    run.keyedTools.add(state.name);
  }
  const key = `${state.name}\u0000${state.args$!.sha256}`;
  const earlier = run.repeats.get(key);
  if (earlier !== undefined) {
    return {
      code: "REPEAT_STOPPED",
      message: `tool "${state.name}" was already called with the same arguments in this run (${named(earlier)}); use that result or change the arguments (a polling tool may set allowRepeat: true)`,
    };
  }
  const holder = { callId: state.callId, receipt: "running" as RepeatHolder["receipt"] };
  run.repeats.set(key, holder);
  state.repeatKey = key;
  state.repeat = holder;
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
  if (state.repeat === undefined || state.dispatched) return;
  const run = state.run;
  if (state.repeatKey === undefined) {
    // Still unkeyed, unless a later call to the tool keyed it meanwhile (a call still running): then under its key.
    if (run.unkeyed.get(state.name)?.holder === state.repeat) {
      run.unkeyed.delete(state.name);
      return;
    }
    for (const [key, holder] of run.repeats)
      if (holder === state.repeat) {
        run.repeats.delete(key);
        return;
      }
    return;
  }
  if (run.repeats.get(state.repeatKey) === state.repeat) run.repeats.delete(state.repeatKey);
}
