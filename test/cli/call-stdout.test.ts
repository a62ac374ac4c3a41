// Issue 11, item 8: an in-process tool's console output never lands in `cave call` stdout (scripts parse --json).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { REPO_ROOT } from "../support/golden.js";
import { removeCopies, writeProject } from "../support/projects.js";

afterAll(removeCopies);

const run = promisify(execFile);

describe("cave call and tool output", () => {
  it("an in-process tool's console.log and process.stdout.write go to stderr; stdout is the outcome alone", async () => {
    const root = writeProject({
      "tools/noisy.ts": `import { schema, tool } from "cave";
export const noisy = tool({
  name: "noisy",
  description: "Logs while it works.",
  effect: "read",
  sandbox: "none",
  input: schema.object({ n: schema.integer() }),
  async execute({ n }) {
    console.log("log line from the tool");
    process.stdout.write("raw stdout from the tool\\n");
    console.info({ progress: n });
    return { doubled: n * 2 };
  },
});
`,
    });
    expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const bin = join(REPO_ROOT, "dist/compiler/cli/bin.js");
    for (const json of [true, false]) {
      const { stdout, stderr } = await run(process.execPath, [
        bin,
        "call",
        "noisy",
        '{"n":21}',
        "--root",
        root,
        ...(json ? ["--json"] : []),
      ]);
      const parsed = JSON.parse(stdout);
      expect(json ? parsed : { ok: true, content: parsed }).toMatchObject({ ok: true, content: { doubled: 42 } });
      expect(stderr).toContain("log line from the tool");
      expect(stderr).toContain("raw stdout from the tool");
      expect(stderr).toContain("progress: 21");
    }
  });
});
