import { randomUUID } from "node:crypto";
import type { CallOutcome } from "../../src/contract/outcome.js";
import type { CallOptions } from "../options.js";
import type { RunState } from "../run-state.js";
import { budget } from "./budget.js";
import { breakerGate, recordBreaker } from "./breaker.js";
import { underDeadline } from "./deadline.js";
import { dispatch } from "./dispatch.js";
import { effectGate } from "./effect-gate.js";
import { receipt } from "./receipt.js";
import { releaseRepeat, repeatGuard } from "./repeat-guard.js";
import { resolve } from "./resolve.js";
import { result } from "./result.js";
import type { CallState, Engine, Failure, Success } from "./state.js";
import { validateInput } from "./validate-input.js";
import { validateOutput } from "./validate-output.js";

/**
 * The one fixed pipeline every call takes, nested calls included:
 * resolve → budget → breaker → repeat guard → effect gate → [deadline: validate input → dispatch →
 * validate output] → result → receipt. Each stage is its own file; this one only sequences them and
 * does the bookkeeping after the outcome is decided.
 */
export async function runCall(engine: Engine, run: RunState, parent: CallState | null, name: unknown, args: unknown, options: CallOptions): Promise<CallOutcome> {
  const state: CallState = {
    engine, run, parent, args, options,
    callId: randomUUID(),
    name: typeof name === "string" ? (name.length > 200 ? `${name.slice(0, 200)}…` : name) : `(a ${typeof name}, not a tool name)`,
    startedAt: performance.now(),
    tool: undefined, dispatcher: undefined, args$: undefined, breakerTrial: undefined, repeatKey: undefined,
    dispatched: false, effectUnknown: false, settled: false, signal: undefined, context: undefined,
  };
  let end: Success | Failure;
  try {
    end = resolve(state) ?? budget(state) ?? breakerGate(state) ?? repeatGuard(state) ?? effectGate(state) ?? (await underDeadline(state, () => execute(state)));
  } finally {
    state.settled = true;
  }
  recordBreaker(state, end.ok === true ? "ok" : end.code);
  releaseRepeat(state);
  return receipt(state, end);
}

async function execute(state: CallState): Promise<Success | Failure> {
  const input = await validateInput(state);
  if (input.ok !== true) return input;
  if (state.settled) return TOO_LATE;
  state.context = Object.freeze({
    signal: state.signal!,
    callId: state.callId,
    call: (name: string, args: unknown) => runCall(state.engine, state.run, state, name, args, state.options),
  });
  state.dispatched = true;
  const raw = await dispatch(state, input.value);
  if (!raw.ok) return { code: raw.code, message: raw.message };
  const output = await validateOutput(state, raw.value);
  if (output.ok !== true) return output;
  return result(state.tool!.result, output.data);
}

/** What execute returns when the deadline already decided the outcome (the value is discarded). */
const TOO_LATE: Failure = { code: "TIMEOUT", message: "the deadline passed before dispatch" };
