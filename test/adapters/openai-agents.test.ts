// cave/openai-agents with the real Agents SDK: a Runner driving the SDK's scripted model.
import { Agent, RunContext, Runner } from "@openai/agents-core";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toOpenAIAgentsTools } from "../../adapters/openai-agents/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject, hostRuntime } from "./support.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
}, 120_000);
afterAll(removeCopies);

const host = () => hostRuntime(root);

/** The output the model was given for a call id, in the input of model call `index`. */
function outputSeen(model: ScriptedModel, index: number, callId: string): string {
  const items = model.calls[index]!.request.input as unknown as ReadonlyArray<{
    type?: string;
    callId?: string;
    output?: unknown;
  }>;
  const item = items.find((i) => i.type === "function_call_result" && i.callId === callId);
  if (item === undefined) throw new Error(`no result for ${callId} in model call ${index}`);
  const output = item.output as { type?: string; text?: string } | string;
  return typeof output === "string" ? output : (output.text ?? JSON.stringify(output));
}

describe("toOpenAIAgentsTools", () => {
  it("gives the locked schema non-strict, with no timeout of its own", async () => {
    const { runtime } = await host();
    const tools = toOpenAIAgentsTools(runtime.startRun());
    expect(tools.map((t) => t.name)).toEqual(runtime.describeTools().map((t) => t.name));
    const lookup = tools.find((t) => t.name === "lookup_policy")!;
    expect(lookup.strict).toBe(false);
    expect(lookup.parameters).toEqual(runtime.describeTools().find((t) => t.name === "lookup_policy")!.inputSchema);
    expect((lookup as { timeoutMs?: number }).timeoutMs).toBeUndefined();
    expect(() => toOpenAIAgentsTools(runtime.startRun(), { strict: "auto" } as never)).toThrow(
      /strict must be a boolean/,
    );
  });

  it("a real Runner: the model reads results and CODE: message failures; receipts carry the call ids", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun({ id: "agents-1" });
    const model = new ScriptedModel([
      [
        functionCall("lookup_policy", { region: "EU" }, { callId: "a1" }),
        functionCall("lookup_policy", { region: 42 }, { callId: "a2" }),
      ],
      [functionCall("issue_refund", { orderId: "o-9", cents: 100 }, { callId: "a3" })],
      [functionCall("issue_refund", { orderId: "o-9", cents: 100 }, { callId: "a4" })],
      [assistantMessage("Refunded o-9.")],
    ]);
    const agent = new Agent({ name: "desk", instructions: "Help.", model, tools: toOpenAIAgentsTools(run) });
    const result = await new Runner({ tracingDisabled: true }).run(agent, "Refund o-9.");
    expect(result.finalOutput).toBe("Refunded o-9.");
    expect(JSON.parse(outputSeen(model, 1, "a1"))).toEqual({ region: "EU", refundWindowDays: 14 });
    expect(outputSeen(model, 1, "a2")).toMatch(/^INPUT_INVALID: the arguments for tool "lookup_policy"/);
    expect(JSON.parse(outputSeen(model, 2, "a3"))).toEqual({ refunded: "o-9", cents: 100 });
    expect(outputSeen(model, 3, "a4")).toMatch(/^REPEAT_STOPPED: /);
    const byCall = Object.fromEntries(sink.receipts.map((r) => [r.correlationId, [r.tool, r.outcome, r.runId]]));
    expect(byCall).toEqual({
      a1: ["lookup_policy", "ok", "agents-1"],
      a2: ["lookup_policy", "INPUT_INVALID", "agents-1"],
      a3: ["issue_refund", "ok", "agents-1"],
      a4: ["issue_refund", "REPEAT_STOPPED", "agents-1"],
    });
  });

  it("forwards the tool-call signal: an aborted call is CANCELLED with a receipt", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun();
    await run.call("slow_write", { id: "warm", ms: 0 }); // its code and validator are loaded before the race starts
    const slow = toOpenAIAgentsTools(run, { tools: ["slow_write"] })[0]!;
    const controller = new AbortController();
    const pending = slow.invoke(new RunContext({}), JSON.stringify({ id: "s", ms: 60_000 }), {
      signal: controller.signal,
      toolCall: { type: "function_call", callId: "k1", name: "slow_write", arguments: "{}" },
    } as never);
    const until = Date.now() + 10_000;
    while (run.usage().calls < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await pending.catch(() => undefined);
    expect(sink.receipts.find((r) => r.correlationId === "k1")).toMatchObject({
      tool: "slow_write",
      outcome: "CANCELLED",
      effectUnknown: true,
    });
  });
});
