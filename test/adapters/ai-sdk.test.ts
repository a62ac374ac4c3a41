// cave/ai-sdk with the real AI SDK (ai 6): generateText driving a scripted model over several steps. The steps shared
// with ai 7 (ai-sdk-v7.test.ts) are ai-sdk-scenario.ts; what is checked only here is below them.
import { generateText, stepCountIs } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaveCallError, toAISDKTools } from "../../adapters/ai-sdk/index.js";
import { removeCopies } from "../support/projects.js";
import { expectAbort, expectLockedDeclarations, expectSeveralSteps, type AiSdk } from "./ai-sdk-scenario.js";
import { scriptedModel, toolResultsSeen } from "./scripted-ai-model.js";
import { builtProject, hostRuntime } from "./support.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
}, 120_000);
afterAll(removeCopies);

const host = () => hostRuntime(root);
const ai6: AiSdk = { generateText, stepCountIs, scriptedModel };

describe("toAISDKTools", () => {
  it("declares every callable tool with its locked schema, and nothing validates before cave; its options", async () => {
    await expectLockedDeclarations(host);
    const { runtime } = await host();
    const tools = toAISDKTools(runtime.startRun());
    expect(tools.lookup_policy!.metadata).toEqual({
      cave: { effect: "read", timeoutMs: 30_000, result: "inline", lockIntegrity: runtime.lockIntegrity },
    });
    expect(Object.keys(toAISDKTools(runtime.startRun(), { tools: ["issue_refund"] }))).toEqual(["issue_refund"]);
    expect(() => toAISDKTools(runtime.startRun(), { tools: ["nope"] })).toThrow(
      /"nope" is not a callable tool of this lock/,
    );
    expect(() => toAISDKTools(runtime.startRun(), { failure: "error" } as never)).toThrow(
      /unknown option "failure"; known options: tools, failures, approval/,
    );
    expect(toAISDKTools(runtime.startRun(), { approval: { write: true } }).issue_refund!.needsApproval).toBe(true);
  });

  it("over several steps the model reads a success, INPUT_INVALID, REPEAT_STOPPED and a page; receipts carry the toolCallIds", async () => {
    await expectSeveralSteps(ai6, host, "chat-1");
  });

  it('failures: "error" throws a CaveCallError the host can read (code, receipt); the model still sees CODE: message', async () => {
    const { runtime } = await host();
    const model = scriptedModel([
      { calls: [{ id: "e1", tool: "lookup_policy", input: { region: 42 } }] },
      { text: "ok" },
    ]);
    const result = await generateText({
      model,
      tools: toAISDKTools(runtime.startRun(), { failures: "error" }),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
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
    await expectAbort(ai6, host);
  });
});
