// A scripted language model for the AI SDK (MockLanguageModelV3 from ai/test): each step is the tool
// calls the model makes, or its final text. What it was prompted with is in model.doGenerateCalls.
import { MockLanguageModelV3 } from "ai/test";

export type Step =
  | { readonly calls: ReadonlyArray<{ readonly id: string; readonly tool: string; readonly input: unknown }> }
  | { readonly text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** What the model answers at each step, as a mock language model's doGenerate results (the same for V3 in ai 6 and V4 in ai 7). */
export function generateResults(steps: readonly Step[]) {
  return steps.map((step) =>
    "text" in step
      ? {
          content: [{ type: "text" as const, text: step.text }],
          finishReason: { unified: "stop" as const, raw: "stop" },
          usage,
          warnings: [],
        }
      : {
          content: step.calls.map((c) => ({
            type: "tool-call" as const,
            toolCallId: c.id,
            toolName: c.tool,
            input: JSON.stringify(c.input),
          })),
          finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
          usage,
          warnings: [],
        },
  );
}

export function scriptedModel(steps: readonly Step[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doGenerate: generateResults(steps) });
}

/** The tool results the model was shown in its prompt of step `step` (0-based), by call id. */
export function toolResultsSeen(
  model: {
    readonly doGenerateCalls: ReadonlyArray<{
      readonly prompt: ReadonlyArray<{ readonly role: string; readonly content: unknown }>;
    }>;
  },
  step: number,
): Record<string, { type: string; value: unknown }> {
  const out: Record<string, { type: string; value: unknown }> = {};
  for (const message of model.doGenerateCalls[step]!.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content as ReadonlyArray<{ type: string; toolCallId: string; output: unknown }>)
      if (part.type === "tool-result") out[part.toolCallId] = part.output as { type: string; value: unknown };
  }
  return out;
}
