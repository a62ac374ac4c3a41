// cave/ai-sdk with the real AI SDK (ai 6): generateText driving a scripted model over several steps.
import { generateText, stepCountIs } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaveCallError, toAISDKTools } from "../../adapters/ai-sdk/index.js";
import { removeCopies } from "../support/projects.js";
import { scriptedModel, toolResultsSeen } from "./scripted-ai-model.js";
import { argumentOf, builtProject, hostRuntime } from "./support.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
}, 120_000);
afterAll(removeCopies);

const host = () => hostRuntime(root);

describe("toAISDKTools", () => {
  it("declares every callable tool with its locked schema, and nothing validates before cave", async () => {
    const { runtime } = await host();
    const tools = toAISDKTools(runtime.startRun());
    expect(Object.keys(tools)).toEqual(runtime.describeTools().map((t) => t.name));
    const lookup = tools.lookup_policy!;
    expect((lookup.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(runtime.describeTools().find((t) => t.name === "lookup_policy")!.inputSchema);
    expect((lookup.inputSchema as { validate?: unknown }).validate).toBeUndefined();
    expect(lookup.metadata).toEqual({ cave: { effect: "read", timeoutMs: 30_000, result: "inline", lockIntegrity: runtime.lockIntegrity } });
    expect(Object.keys(toAISDKTools(runtime.startRun(), { tools: ["issue_refund"] }))).toEqual(["issue_refund"]);
    expect(() => toAISDKTools(runtime.startRun(), { tools: ["nope"] })).toThrow(/"nope" is not a callable tool of this lock/);
    expect(() => toAISDKTools(runtime.startRun(), { failure: "error" } as never)).toThrow(/unknown option "failure"; known options: tools, failures, approval/);
    expect(toAISDKTools(runtime.startRun(), { approval: { write: true } }).issue_refund!.needsApproval).toBe(true);
  });

  it("over several steps the model reads a success, INPUT_INVALID, REPEAT_STOPPED and a page; receipts carry the toolCallIds", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun({ id: "chat-1" });
    const model = scriptedModel([
      { calls: [{ id: "c1", tool: "lookup_policy", input: { region: "EU" } }, { id: "c2", tool: "lookup_policy", input: { region: 42 } }, { id: "c3", tool: "issue_refund", input: { orderId: "o-1", cents: 500 } }] },
      { calls: [{ id: "c4", tool: "issue_refund", input: { orderId: "o-1", cents: 500 } }, { id: "c5", tool: "list_orders", input: { count: 400 } }] },
      { text: "Refunded." },
    ]);
    const result = await generateText({ model, tools: toAISDKTools(run), prompt: "Refund order o-1.", stopWhen: stepCountIs(5) });
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
    expect(afterSecond.c5!.value).toMatch(/^\[page 1 of \d+/);
    expect(argumentOf(afterSecond.c5!.value as string, "cave_page").cursor).toMatch(/^pg2\./);

    // Calls of one step run concurrently: receipts come in the order they finished.
    expect(sink.receipts.map((r) => [r.correlationId, r.tool, r.outcome, r.runId]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ["c1", "lookup_policy", "ok", "chat-1"],
      ["c2", "lookup_policy", "INPUT_INVALID", "chat-1"],
      ["c3", "issue_refund", "ok", "chat-1"],
      ["c4", "issue_refund", "REPEAT_STOPPED", "chat-1"],
      ["c5", "list_orders", "ok", "chat-1"],
    ]);
  });

  it('failures: "error" throws a CaveCallError the host can read (code, receipt); the model still sees CODE: message', async () => {
    const { runtime } = await host();
    const model = scriptedModel([{ calls: [{ id: "e1", tool: "lookup_policy", input: { region: 42 } }] }, { text: "ok" }]);
    const result = await generateText({ model, tools: toAISDKTools(runtime.startRun(), { failures: "error" }), prompt: "x", stopWhen: stepCountIs(3) });
    const errorPart = result.steps[0]!.content.find((part) => part.type === "tool-error")!;
    expect(errorPart).toBeDefined();
    const error = (errorPart as { error: unknown }).error;
    expect(error).toBeInstanceOf(CaveCallError);
    expect((error as CaveCallError).code).toBe("INPUT_INVALID");
    expect((error as CaveCallError).receipt.correlationId).toBe("e1");
    const seen = toolResultsSeen(model, 1).e1!;
    expect(seen.type).toBe("error-text");
    expect(String(seen.value)).toMatch(/INPUT_INVALID: /);
  });

  it("aborting generateText's abortSignal cancels the call: CANCELLED, effectUnknown for the dispatched write", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun();
    await run.call("slow_write", { id: "warm", ms: 0 }); // its code and validator are loaded before the race starts
    const model = scriptedModel([{ calls: [{ id: "w1", tool: "slow_write", input: { id: "x", ms: 60_000 } }] }, { text: "never" }]);
    const controller = new AbortController();
    const pending = generateText({ model, tools: toAISDKTools(run), prompt: "x", abortSignal: controller.signal, stopWhen: stepCountIs(3) });
    const until = Date.now() + 10_000;
    while (run.usage().calls < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(pending).rejects.toThrow();
    const cancelled = sink.receipts.find((r) => r.correlationId === "w1");
    expect(cancelled).toMatchObject({ tool: "slow_write", outcome: "CANCELLED", effectUnknown: true });
  });
});
