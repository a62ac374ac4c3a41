/** cave/openai-agents: locked tools as function tools of the OpenAI Agents SDK (@openai/agents). */
import { tool, type FunctionTool } from "@openai/agents-core";
import type { Run, ToolInfo } from "../../runtime/index.js";
import { callOptions } from "../shared/call-options.js";
import { CaveCallError, checkKeys, selectTools } from "../shared/outcome.js";

export { CaveCallError } from "../shared/outcome.js";

type Effect = ToolInfo["effect"];

export interface OpenAIAgentsToolsOptions {
  /** The tools to expose, by name (default: every callable tool, cave_page / cave_recover included when the lock needs them). */
  readonly tools?: readonly string[];
  /**
   * false (the default): the model gets exactly the locked schema, and cave validates. true: the SDK's
   * strict mode, which rewrites the schema (an optional field becomes required and nullable) and
   * refuses schemas it cannot express; only for locks whose schemas are strict-ready.
   */
  readonly strict?: boolean;
  /** needsApproval by effect, e.g. { write: true, external: true }: the run is interrupted for approval. */
  readonly approval?: Partial<Record<Effect, boolean>>;
}

const KEYS = ["tools", "strict", "approval"] as const;
const EFFECTS: readonly Effect[] = ["read", "write", "idempotent", "external"];

/**
 * One function tool per callable tool: the locked schema as `parameters` (strict: false by default),
 * execute forwarding the SDK's signal and the model's call id to run.call, and an errorFunction that
 * gives the model `CODE: message` (the SDK's default would hide the code behind a generic sentence).
 * A failed call throws a CaveCallError inside the SDK, which the errorFunction turns into the tool's
 * output; the receipt is recorded either way. No timeoutMs: cave enforces the locked timeout.
 */
export function toOpenAIAgentsTools(run: Run, options?: OpenAIAgentsToolsOptions): FunctionTool[] {
  const o = checkKeys(options, KEYS, "toOpenAIAgentsTools()") as OpenAIAgentsToolsOptions;
  const strict = o.strict ?? false;
  if (typeof strict !== "boolean") throw new TypeError("toOpenAIAgentsTools(): strict must be a boolean");
  const approval =
    o.approval === undefined ? undefined : checkKeys(o.approval, EFFECTS, "toOpenAIAgentsTools() approval");
  return selectTools(run, o.tools, "toOpenAIAgentsTools()").map((info) => {
    const name = info.name;
    const needsApproval = approval?.[info.effect];
    return tool({
      name,
      description: info.description,
      parameters: info.inputSchema as never,
      strict: strict as false,
      ...(typeof needsApproval === "boolean" ? { needsApproval } : {}),
      async execute(
        input: unknown,
        _context: unknown,
        details?: { readonly signal?: AbortSignal; readonly toolCall?: { readonly callId?: string } },
      ) {
        const outcome = await run.call(name, input, callOptions(details?.signal, details?.toolCall?.callId));
        if (outcome.ok) return outcome.content;
        throw new CaveCallError(outcome);
      },
      // A CaveCallError's message is `CODE: message`; anything else is the SDK's own refusal (arguments
      // that are not JSON text, for one), shown as it is: cave never saw that call.
      errorFunction: (_context: unknown, error: unknown) => (error instanceof Error ? error.message : String(error)),
    }) as FunctionTool;
  });
}
