import type { DispatchFailure, DispatchRequest, DispatchResult } from "../dispatch/types.js";
import { retryDelayMs } from "../run/retry.js";
import { thrownMessage } from "../../src/contract/thrown-message.mjs";
import type { CallState } from "./state.js";

/**
 * Stage 7, dispatch: hand the validated input to the tool's dispatcher. A retryable (read or
 * idempotent) tool whose attempt failed transiently is tried again with the same input, up to
 * retry.maxAttempts attempts in all, after 50 ms, 100 ms... and never past the deadline; write and
 * external tools are tried exactly once. The pipeline awaits the first attempt itself (most calls
 * need nothing else); `afterFailure` does the rest.
 */
export function dispatchRequest(state: CallState, input: unknown): DispatchRequest {
  const { engine, name } = state;
  const tool = state.tool!;
  if (tool.sandbox.egress.length > 0) state.egress ??= [];
  const loads = loadsOf(state);
  return {
    name,
    tool,
    root: engine.root,
    runId: state.run.id,
    input,
    context: state.context!,
    egressLog: state.egress,
    loadModule: loads.loadModule,
    stageFiles: loads.stageFiles,
    mapStack: loads.mapStack,
  };
}

/** A request's loading functions, made once per tool entry and runtime rather than three closures per call. */
interface Loads {
  readonly engine: CallState["engine"];
  readonly name: string;
  readonly loadModule: DispatchRequest["loadModule"];
  readonly stageFiles: DispatchRequest["stageFiles"];
  readonly mapStack: NonNullable<DispatchRequest["mapStack"]>;
}

const loadsByTool = new WeakMap<object, Loads>();

function loadsOf(state: CallState): Loads {
  const { engine, name } = state;
  const tool = state.tool!;
  const known = loadsByTool.get(tool);
  // Keyed by the lock entry (one per tool name in one runtime's lock); checked, since a lock object could be shared.
  if (known !== undefined && known.engine === engine && known.name === name) return known;
  const loader = engine.loader;
  const loads: Loads = {
    engine,
    name,
    loadModule: () => loader.bundle(name, tool),
    stageFiles: () => loader.stageFiles(name, tool),
    mapStack: (raw) => loader.mapStack(raw),
  };
  loadsByTool.set(tool, loads);
  return loads;
}

/** A dispatcher must report failures as data; one that throws or rejects is treated as a tool failure. */
export function dispatcherFailed(state: CallState, thrown: unknown): DispatchFailure {
  return {
    ok: false,
    code: "TOOL_ERROR",
    message: `tool "${state.name}": its dispatcher failed: ${thrownMessage(thrown)}`,
    transient: false,
    effectUnknown: state.tool!.effect !== "read",
  };
}

/** After a failed attempt: note a possible effect, and try again while the failure is transient and attempts and time remain. */
export async function afterFailure(
  state: CallState,
  request: DispatchRequest,
  failed: DispatchFailure,
): Promise<DispatchResult> {
  const tool = state.tool!;
  const maxAttempts = tool.retryable ? state.engine.options.retry.maxAttempts : 1;
  const abort = state.abort!;
  let result: DispatchResult = failed;
  for (let attempt = 1; ; attempt++) {
    if (result.ok) return result;
    if (result.effectUnknown && tool.effect !== "read") state.effectUnknown = true;
    if (!result.transient || attempt >= maxAttempts || abort.aborted) return result;
    await sleep(retryDelayMs(attempt), abort.signal);
    if (abort.aborted) return result;
    try {
      result = await state.dispatcher!.dispatch(request);
    } catch (thrown) {
      result = dispatcherFailed(state, thrown);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
