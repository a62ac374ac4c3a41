import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callCommand } from "../../compiler/cli/commands/call.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(removeCopies);

async function run(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await callCommand(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd,
    env: {},
  });
  return { code, stdout, stderr };
}

describe("cave call", () => {
  it("prints the content and exits 0", async () => {
    const result = await run(["lookup", '{"region":"EU"}']);
    expect(result).toEqual({ code: 0, stdout: `${JSON.stringify({ region: "EU", days: 14 }, null, 2)}\n`, stderr: "" });
  });

  it("runs a sandbox: required tool in the sandbox and stops it afterwards", async () => {
    const result = await run(["sandboxed"]);
    expect(result).toEqual({ code: 0, stdout: `${JSON.stringify({ sandboxed: true }, null, 2)}\n`, stderr: "" });
  });

  it("prints the whole outcome with --json, and finds the project with --root", async () => {
    const result = await run(["echo", "[1,2]", "--json", "--root", root], "/");
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout);
    expect(outcome).toMatchObject({
      ok: true,
      content: [1, 2],
      receipt: { tool: "echo", outcome: "ok", parentId: null },
    });
  });

  it("blocks effects with --fixture and exits 1 with the code and message", async () => {
    const result = await run(["write_tool", '{"id":"1"}', "--fixture"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("cave call: write_tool failed: EFFECT_BLOCKED: ");
    expect(result.stderr).toContain("(receipt ");
  });

  it("reports a missing lock without an absolute path", async () => {
    const result = await run(["lookup", "{}", "--root", "/nonexistent-cave-root"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "cave call: LOCK_NOT_FOUND: cave.lock does not exist; run cave build in the project root, or pass root and lock to createRuntime()\n",
    );
  });

  it.each([
    [[], "missing the tool name"],
    [["lookup", "{nope"], "the arguments are not valid JSON"],
    [["lookup", "{}", "--fixtures"], "Unknown option '--fixtures'"],
    [["lookup", "{}", "extra"], 'unexpected argument "extra"'],
  ])("refuses bad usage %j with the usage line", async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("usage: cave call TOOL");
  });
});
