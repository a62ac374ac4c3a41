// cave/ai-sdk with the AI SDK's ai 7 (engines: Node >=22; installed as the dev dependency alias ai-v7): every import
// of "ai" in this file's module graph, the adapter's included, is ai 7, and the scripted model is ai 7's
// MockLanguageModelV4. .ci/on-node runs this file on Node 22 and 24; ai 6 is test/adapters/ai-sdk.test.ts. Both run
// the same steps and assertions (ai-sdk-scenario.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as ai7 from "ai-v7";
import { MockLanguageModelV4 } from "ai-v7/test";
import { removeCopies } from "../support/projects.js";
import { expectAbort, expectLockedDeclarations, expectSeveralSteps, type AiSdk } from "./ai-sdk-scenario.js";
import { generateResults, type Step } from "./scripted-ai-model.js";
import { builtProject, hostRuntime } from "./support.js";

vi.mock("ai", async () => await import("ai-v7"));

const ai: AiSdk = {
  generateText: ai7.generateText,
  stepCountIs: ai7.stepCountIs,
  scriptedModel: (steps: readonly Step[]) => new MockLanguageModelV4({ doGenerate: generateResults(steps) }),
};

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
    await expectLockedDeclarations(host);
  });

  it("generateText over several steps: the model reads a success, INPUT_INVALID, REPEAT_STOPPED and a page; receipts carry the toolCallIds", async () => {
    await expectSeveralSteps(ai, host, "chat-7");
  });

  it("aborting generateText's abortSignal cancels the call: CANCELLED, effectUnknown for the dispatched write", async () => {
    await expectAbort(ai, host);
  });
});
