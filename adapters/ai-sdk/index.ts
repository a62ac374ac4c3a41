/** cave/ai-sdk: locked tools as the `tools` record of the Vercel AI SDK's generateText / streamText (ai 6 and 7). */
import { dynamicTool, jsonSchema, type Tool } from "ai";
import type { Run, ToolInfo } from "../../runtime/index.js";
import { callOptions } from "../shared/call-options.js";
import { CaveCallError, checkKeys, failureText, selectTools } from "../shared/outcome.js";

export { CaveCallError } from "../shared/outcome.js";

type Effect = ToolInfo["effect"];
/** What toModelOutput returns (ToolResultOutput, which `ai` itself does not re-export). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool<unknown, unknown>["toModelOutput"]>>>;

export interface AISDKToolsOptions {
  /** The tools to expose, by name (default: every callable tool, cave_page / cave_recover included when the lock needs them). */
  readonly tools?: readonly string[];
  /**
   * How a failed call reaches the host. "result" (the default): execute returns a failure value the
   * model reads as `CODE: message` (error-text); nothing is thrown, so a host that retries thrown
   * errors (durable workflows) never re-runs a write. "error": execute throws a CaveCallError (code and
   * receipt on it), which generateText turns into a tool-error part.
   */
  readonly failures?: "result" | "error";
  /** needsApproval by effect, e.g. { write: true, external: true } (ai 6; ai 7 also reads it under WorkflowAgent). */
  readonly approval?: Partial<Record<Effect, boolean>>;
}

/** A failed call as execute returns it under failures: "result" (what toModelOutput renders as error-text). */
export interface CaveFailure {
  readonly cave_error: { readonly code: string; readonly message: string };
}

const KEYS = ["tools", "failures", "approval"] as const;
const EFFECTS: readonly Effect[] = ["read", "write", "idempotent", "external"];

/** Failure values made here: toModelOutput tells them from a tool's own result by identity, never by shape. */
const failuresMade = new WeakSet<object>();

/**
 * One AI SDK tool per callable tool: the locked draft-07 schema through jsonSchema() without a
 * validator (cave's precompiled one is the only check, so invalid input is cave's INPUT_INVALID with a
 * receipt), and execute forwarding the SDK's abortSignal and toolCallId to run.call. A success returns
 * the content the result plan let into context. No timeout is added: cave enforces the locked one
 * (an ai 7 `timeout.tools` shorter than it would abort first, and the receipt would say CANCELLED).
 */
export function toAISDKTools(run: Run, options?: AISDKToolsOptions): Record<string, Tool<unknown, unknown>> {
  const o = checkKeys(options, KEYS, "toAISDKTools()") as AISDKToolsOptions;
  const failures = o.failures ?? "result";
  if (failures !== "result" && failures !== "error")
    throw new TypeError(`toAISDKTools(): failures must be "result" or "error" (got ${JSON.stringify(failures)})`);
  const approval = o.approval === undefined ? undefined : checkKeys(o.approval, EFFECTS, "toAISDKTools() approval");
  const lockIntegrity = run.runtime.lockIntegrity;
  const out: Record<string, Tool<unknown, unknown>> = {};
  for (const info of selectTools(run, o.tools, "toAISDKTools()")) {
    const name = info.name;
    const needsApproval = approval?.[info.effect];
    out[name] = dynamicTool({
      description: info.description,
      inputSchema: jsonSchema(info.inputSchema as Parameters<typeof jsonSchema>[0]),
      metadata: { cave: { effect: info.effect, timeoutMs: info.timeoutMs, result: info.result, lockIntegrity } },
      ...(typeof needsApproval === "boolean" ? { needsApproval } : {}),
      async execute(input, { toolCallId, abortSignal }) {
        const outcome = await run.call(name, input, callOptions(abortSignal, toolCallId));
        if (outcome.ok) return outcome.content;
        if (failures === "error") throw new CaveCallError(outcome);
        const failure: CaveFailure = { cave_error: { code: outcome.error.code, message: outcome.error.message } };
        failuresMade.add(failure);
        return failure;
      },
      toModelOutput: ({ output }) => modelOutput(output),
    });
  }
  return out;
}

/** What the model reads: a failure as error-text `CODE: message`; a success as the SDK would show it (text for a string, else JSON). */
function modelOutput(output: unknown): ToolResultOutput {
  if (typeof output === "object" && output !== null && failuresMade.has(output))
    return { type: "error-text", value: failureText((output as CaveFailure).cave_error) };
  if (typeof output === "string") return { type: "text", value: output };
  return { type: "json", value: (output ?? null) as never };
}
