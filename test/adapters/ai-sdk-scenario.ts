// What toAISDKTools must do under either major of the AI SDK, written once: ai-sdk.test.ts runs it with ai 6 and
// ai-sdk-v7.test.ts with ai 7, each passing its own generateText, stepCountIs and scripted model (MockLanguageModelV3 /
// V4), so both majors are held to the same steps and the same assertions.
import { expect } from "vitest";
import { toAISDKTools } from "../../adapters/ai-sdk/index.js";
import type { MemoryReceiptSink, Runtime } from "../../runtime/index.js";
import { toolResultsSeen, type Step } from "./scripted-ai-model.js";
import { argumentOf } from "./support.js";

/** The parts of one AI SDK major the scenario drives (their option types differ by major: the calls pass `never`). */
export interface AiSdk {
  readonly generateText: (options: never) => Promise<{ readonly text: string }>;
  readonly stepCountIs: (count: number) => unknown;
  readonly scriptedModel: (steps: readonly Step[]) => Parameters<typeof toolResultsSeen>[0];
}

type Host = () => Promise<{ runtime: Runtime; sink: MemoryReceiptSink }>;

/** Every callable tool is declared with its locked schema, and nothing validates before cave. */
export async function expectLockedDeclarations(host: Host): Promise<void> {
  const { runtime } = await host();
  const tools = toAISDKTools(runtime.startRun());
  expect(Object.keys(tools)).toEqual(runtime.describeTools().map((t) => t.name));
  const lookup = tools.lookup_policy!;
  expect((lookup.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(
    runtime.describeTools().find((t) => t.name === "lookup_policy")!.inputSchema,
  );
  expect((lookup.inputSchema as { validate?: unknown }).validate).toBeUndefined();
}

/** Over several steps the model reads a success, INPUT_INVALID, REPEAT_STOPPED and a page; receipts carry the toolCallIds and the run id. */
export async function expectSeveralSteps(sdk: AiSdk, host: Host, runId: string): Promise<void> {
  const { runtime, sink } = await host();
  const run = runtime.startRun({ id: runId });
  const model = sdk.scriptedModel([
    {
      calls: [
        { id: "c1", tool: "lookup_policy", input: { region: "EU" } },
        { id: "c2", tool: "lookup_policy", input: { region: 42 } },
        { id: "c3", tool: "issue_refund", input: { orderId: "o-1", cents: 500 } },
      ],
    },
    {
      calls: [
        { id: "c4", tool: "issue_refund", input: { orderId: "o-1", cents: 500 } },
        { id: "c5", tool: "list_orders", input: { count: 400 } },
      ],
    },
    { text: "Refunded." },
  ]);
  const result = await sdk.generateText({
    model,
    tools: toAISDKTools(run),
    prompt: "Refund order o-1.",
    stopWhen: sdk.stepCountIs(5),
  } as never);
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
  expect(
    sink.receipts
      .map((r) => [r.correlationId, r.tool, r.outcome, r.runId])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  ).toEqual([
    ["c1", "lookup_policy", "ok", runId],
    ["c2", "lookup_policy", "INPUT_INVALID", runId],
    ["c3", "issue_refund", "ok", runId],
    ["c4", "issue_refund", "REPEAT_STOPPED", runId],
    ["c5", "list_orders", "ok", runId],
  ]);
}

/** Aborting generateText's abortSignal cancels the call: CANCELLED, effectUnknown for the dispatched write. */
export async function expectAbort(sdk: AiSdk, host: Host): Promise<void> {
  const { runtime, sink } = await host();
  const run = runtime.startRun();
  await run.call("slow_write", { id: "warm", ms: 0 }); // its code and validator are loaded before the race starts
  const model = sdk.scriptedModel([
    { calls: [{ id: "w1", tool: "slow_write", input: { id: "x", ms: 60_000 } }] },
    { text: "never" },
  ]);
  const controller = new AbortController();
  const pending = sdk.generateText({
    model,
    tools: toAISDKTools(run),
    prompt: "x",
    abortSignal: controller.signal,
    stopWhen: sdk.stepCountIs(3),
  } as never);
  const until = Date.now() + 10_000;
  while (run.usage().calls < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 100));
  controller.abort();
  await expect(pending).rejects.toThrow();
  expect(sink.receipts.find((r) => r.correlationId === "w1")).toMatchObject({
    tool: "slow_write",
    outcome: "CANCELLED",
    effectUnknown: true,
  });
}
