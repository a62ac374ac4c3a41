// cave/ai-sdk with the AI SDK's ai 7 (engines: Node >=22; installed as the dev dependency alias ai-v7): every import
// of "ai" in this file's module graph, the adapter's included, is ai 7, and the scripted model is ai 7's
// MockLanguageModelV4. .ci/on-node runs this file on Node 22 and 24; ai 6 is test/adapters/ai-sdk.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as ai7 from "ai-v7";
import { MockLanguageModelV4 } from "ai-v7/test";
import { toAISDKTools } from "../../adapters/ai-sdk/index.js";
import { removeCopies } from "../support/projects.js";
import { generateResults, toolResultsSeen, type Step } from "./scripted-ai-model.js";
import { argumentOf, builtProject, hostRuntime } from "./support.js";

vi.mock("ai", async () => await import("ai-v7"));

const scriptedModel = (steps: readonly Step[]) => new MockLanguageModelV4({ doGenerate: generateResults(steps) });

let root: string;
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
}, 120_000);
afterAll(removeCopies);

const host = () => hostRuntime(root);

describe("toAISDKTools with ai 7", () => {
  it("the adapter is built on ai 7 here (its dynamicTool and jsonSchema), with the locked schema and no second validator", async () => {
    const imported = await import("ai");
    expect(imported.dynamicTool).toBe(ai7.dynamicTool);
    expect(imported.jsonSchema).toBe(ai7.jsonSchema);
    const { runtime } = await host();
    const tools = toAISDKTools(runtime.startRun());
    expect(Object.keys(tools)).toEqual(runtime.describeTools().map((t) => t.name));
    expect((tools.lookup_policy!.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(runtime.describeTools().find((t) => t.name === "lookup_policy")!.inputSchema);
    expect((tools.lookup_policy!.inputSchema as { validate?: unknown }).validate).toBeUndefined();
  });

  it("generateText over several steps: the model reads a success, INPUT_INVALID, REPEAT_STOPPED and a page; receipts carry the toolCallIds", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun({ id: "chat-7" });
    const model = scriptedModel([
      { calls: [{ id: "c1", tool: "lookup_policy", input: { region: "EU" } }, { id: "c2", tool: "lookup_policy", input: { region: 42 } }, { id: "c3", tool: "issue_refund", input: { orderId: "o-1", cents: 500 } }] },
      { calls: [{ id: "c4", tool: "issue_refund", input: { orderId: "o-1", cents: 500 } }, { id: "c5", tool: "list_orders", input: { count: 400 } }] },
      { text: "Refunded." },
    ]);
    const result = await ai7.generateText({ model, tools: toAISDKTools(run) as unknown as ai7.ToolSet, prompt: "Refund order o-1.", stopWhen: ai7.stepCountIs(5) });
    expect(result.text).toBe("Refunded.");

    const afterFirst = toolResultsSeen(model, 1);
    expect(afterFirst.c1).toEqual({ type: "json", value: { region: "EU", refundWindowDays: 14 } });
    expect(afterFirst.c2!.type).toBe("error-text");
    expect(afterFirst.c2!.value).toMatch(/^INPUT_INVALID: the arguments for tool "lookup_policy"/);
    expect(afterFirst.c3).toEqual({ type: "json", value: { refunded: "o-1", cents: 500 } });
    const afterSecond = toolResultsSeen(model, 2);
    expect(afterSecond.c4!.type).toBe("error-text");
    expect(afterSecond.c4!.value).toMatch(/^REPEAT_STOPPED: /);
    expect(afterSecond.c5!.type).toBe("text");
    expect(argumentOf(afterSecond.c5!.value as string, "cave_page").cursor).toMatch(/^pg2\./);

    expect(sink.receipts.map((r) => [r.correlationId, r.tool, r.outcome, r.runId]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ["c1", "lookup_policy", "ok", "chat-7"],
      ["c2", "lookup_policy", "INPUT_INVALID", "chat-7"],
      ["c3", "issue_refund", "ok", "chat-7"],
      ["c4", "issue_refund", "REPEAT_STOPPED", "chat-7"],
      ["c5", "list_orders", "ok", "chat-7"],
    ]);
  });

  it("aborting generateText's abortSignal cancels the call: CANCELLED, effectUnknown for the dispatched write", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun();
    await run.call("slow_write", { id: "warm", ms: 0 });
    const model = scriptedModel([{ calls: [{ id: "w1", tool: "slow_write", input: { id: "x", ms: 60_000 } }] }, { text: "never" }]);
    const controller = new AbortController();
    const pending = ai7.generateText({ model, tools: toAISDKTools(run) as unknown as ai7.ToolSet, prompt: "x", abortSignal: controller.signal, stopWhen: ai7.stepCountIs(3) });
    const until = Date.now() + 10_000;
    while (run.usage().calls < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(sink.receipts.find((r) => r.correlationId === "w1")).toMatchObject({ tool: "slow_write", outcome: "CANCELLED", effectUnknown: true });
  });
});
