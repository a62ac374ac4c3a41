// A conversation with the support desk through the AI SDK adapter, driven by a scripted model (no
// network, no API key): what the model asks for at each step, what it is shown back, and the receipts.
//
//   npm run build && npx cave build --root examples/support-desk
//   node examples/support-desk/scripts/scripted-conversation.mjs [PROJECT_ROOT]
//
// Swap `model` for a real provider model (e.g. openai("gpt-5")) and the rest stays the same.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { toAISDKTools } from "cave/ai-sdk";
import { createRuntime, MemoryReceiptSink } from "cave/runtime";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));

// What the model does, step by step: the tool calls it makes, then its answer.
const script = [
  [
    { id: "call_1", tool: "get_customer", input: { customerId: "CUS-0001" } },
    { id: "call_2", tool: "get_refund_policy", input: { region: "EU" } },
    { id: "call_3", tool: "get_customer", input: { customerId: 1 } }, // a wrong type: cave says INPUT_INVALID
  ],
  [
    { id: "call_4", tool: "get_customer", input: { customerId: "CUS-0001" } }, // the same call again: REPEAT_STOPPED
    { id: "call_5", tool: "list_customer_orders", input: { customerId: "CUS-0001" } },
  ],
  "Mina, your keyboard order ORD-10001 is within the 30-day EU refund window; shall I start the refund?",
];

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const model = new MockLanguageModelV3({
  doGenerate: script.map((step) =>
    typeof step === "string"
      ? { content: [{ type: "text", text: step }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }
      : {
          content: step.map((c) => ({
            type: "tool-call",
            toolCallId: c.id,
            toolName: c.tool,
            input: JSON.stringify(c.input),
          })),
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        },
  ),
});

const receipts = new MemoryReceiptSink();
const runtime = await createRuntime({ root, mode: "host", receipts });
try {
  const run = runtime.startRun({ id: "conversation-1" });
  const result = await generateText({
    model,
    system: "You are the support desk of an electronics shop.",
    prompt: "Hi, I'm customer CUS-0001. Can I still return my keyboard?",
    tools: toAISDKTools(run),
    stopWhen: stepCountIs(5),
  });

  result.steps.forEach((step, i) => {
    console.log(`step ${i + 1}`);
    for (const part of step.content) {
      if (part.type === "tool-call")
        console.log(`  model calls ${part.toolName} ${JSON.stringify(part.input)} (${part.toolCallId})`);
    }
    // What the model is shown in its next prompt, as the AI SDK sends it.
    const next = model.doGenerateCalls[i + 1];
    for (const message of next?.prompt ?? []) {
      if (message.role !== "tool") continue;
      for (const part of message.content) {
        if (
          part.type !== "tool-result" ||
          !step.content.some((c) => c.type === "tool-call" && c.toolCallId === part.toolCallId)
        )
          continue;
        const shown = typeof part.output.value === "string" ? part.output.value : JSON.stringify(part.output.value);
        console.log(
          `  model reads (${part.toolCallId}, ${part.output.type}): ${shown.length > 160 ? `${shown.slice(0, 160)}…` : shown}`,
        );
      }
    }
  });
  console.log(`answer: ${result.text}`);
  console.log("receipts:");
  for (const r of receipts.receipts)
    console.log(`  ${r.correlationId ?? "(nested)"} ${r.tool} ${r.outcome} run=${r.runId}`);
} finally {
  runtime.close();
}
