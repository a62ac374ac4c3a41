import type { DispatchResult } from "../dispatch/types.js";
import { retryDelayMs } from "../retry.js";
import { thrownMessage } from "../thrown-message.js";
import type { CallState } from "./state.js";

/**
 * Stage 7, dispatch: hand the validated input to the tool's dispatcher. A retryable (read or
 * idempotent) tool whose attempt failed transiently is tried again with the same input, up to
 * retry.maxAttempts attempts in all, after 50 ms, 100 ms... and never past the deadline; write and
 * external tools are tried exactly once.
 */
export async function dispatch(state: CallState, input: unknown): Promise<DispatchResult> {
  const { engine, name } = state;
  const tool = state.tool!;
  const request = { name, tool, root: engine.root, runId: state.run.id, input, context: state.context!, loadModule: () => engine.loader.bundle(name, tool) };
  const maxAttempts = tool.retryable ? engine.options.retry.maxAttempts : 1;
  const abort = state.abort!;
  for (let attempt = 1; ; attempt++) {
    let result: DispatchResult;
    try {
      result = await state.dispatcher!.dispatch(request);
    } catch (thrown) {
      // A dispatcher must report failures as data; one that throws is treated as a tool failure.
      result = { ok: false, code: "TOOL_ERROR", message: `tool "${name}": its dispatcher failed: ${thrownMessage(thrown)}`, transient: false, effectUnknown: tool.effect !== "read" };
    }
    if (result.ok) return result;
    if (result.effectUnknown && tool.effect !== "read") state.effectUnknown = true;
    if (!result.transient || attempt >= maxAttempts || abort.aborted) return result;
    await sleep(retryDelayMs(attempt), abort.signal);
    if (abort.aborted) return result;
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
