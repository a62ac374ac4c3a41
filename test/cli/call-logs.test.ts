// Issue 11, item 8: `cave call` shows a sandboxed tool's console output and a failure's mapped stack on stderr, never
// on stdout; with --json both are fields of the outcome and stdout is that JSON alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { callCommand } from "../../compiler/cli/commands/call.js";
import { removeCopies, writeProject } from "../support/projects.js";

const TOOL = `import { schema, tool } from "cave";

export const noisy = tool({
  name: "noisy",
  description: "Logs, then answers or throws.",
  effect: "read",
  input: schema.object({ fail: schema.boolean() }),
  execute({ fail }) {
    console.log("working");
    console.error("warning: almost done");
    if (fail) throw new Error("it broke");
    return { done: true };
  },
});
`;

let root: string;
beforeAll(async () => {
  root = writeProject({ "tools/noisy.ts": TOOL });
  expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
});
afterAll(removeCopies);

async function call(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await callCommand(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: root,
    env: {},
  });
  return { code, stdout, stderr };
}

const OUTPUT = "--- output of noisy (stdout and stderr) ---\nworking\nwarning: almost done\n--- end of output ---\n";

describe("cave call and a tool's output", () => {
  it("prints the content on stdout and the tool's output on stderr", async () => {
    expect(await call(["noisy", '{"fail":false}'])).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ done: true }, null, 2)}\n`,
      stderr: OUTPUT,
    });
  });

  it("prints a failure's output, code, message and mapped stack on stderr", async () => {
    const result = await call(["noisy", '{"fail":true}']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^${OUTPUT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}cave call: noisy failed: TOOL_ERROR: tool "noisy" failed: it broke\n    at Object.execute \\(tools/noisy.ts:11:21\\)\n\\(receipt [0-9a-f-]+\\)\n$`,
      ),
    );
  });

  it("with --json, stdout is the outcome alone, its logs and stack fields included, and stderr is empty", async () => {
    const result = await call(["noisy", '{"fail":true}', "--json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      logs: "working\nwarning: almost done\n",
      error: { code: "TOOL_ERROR", stack: ["Object.execute (tools/noisy.ts:11:21)"] },
    });
  });
});
