// The example's scripted conversation (examples/support-desk/scripts) runs against the built example.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/golden.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support.js";

afterAll(removeCopies);

describe("examples/support-desk/scripts/scripted-conversation.mjs", () => {
  it("drives a conversation through the AI SDK adapter and prints what the model read and the receipts", async () => {
    const root = await builtProject("examples/support-desk");
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(REPO_ROOT, "examples/support-desk/scripts/scripted-conversation.mjs"),
      root,
    ]);
    expect(stdout).toContain('model reads (call_3, error-text): INPUT_INVALID: the arguments for tool "get_customer"');
    expect(stdout).toContain("model reads (call_4, error-text): REPEAT_STOPPED: ");
    expect(stdout).toContain('model reads (call_1, json): {"customerId":"CUS-0001"');
    expect(stdout).toContain("answer: Mina, your keyboard order ORD-10001");
    expect(stdout).toMatch(/call_5 list_customer_orders ok run=conversation-1/);
  }, 120_000);
});
