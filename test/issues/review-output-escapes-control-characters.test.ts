// Issue 13, item 11: terminal escape sequences in a tool's description reached `cave diff` / `cave explain` text
// output and could erase review lines. Every human-readable output escapes control characters.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { escapeControls } from "../../compiler/cli/safe-text.js";
import { cave } from "../cli/helpers.js";
import { removeCopies, writeProject } from "../support/projects.js";

/**
 * Issue 13 item 11: text a tool author or a tool controls (descriptions, error messages, names in diagnostics,
 * source lines in code frames) reaches cave diff, cave explain, diagnostics and cave call. A terminal escape
 * sequence in it could erase or rewrite review lines; every human-readable output shows control characters as
 * visible escapes instead.
 */
afterAll(removeCopies);

// Erase the line, move up, carriage return, an 8-bit CSI (C1), a bidi override, a line separator.
const ATTACK = "\u001b[2K\u001b[1A\r\u009b2K\u202e\u2028";
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const tools = (description: string) => `import { tool, schema } from "cave";
export const shady = tool({
  name: "shady",
  description: ${JSON.stringify(description)},
  input: schema.object({}),
  effect: "read",
  sandbox: "none",
  execute() {
    throw new Error(${JSON.stringify(`boom ${ATTACK} fine`)});
  },
});
`;

describe("control characters in human-readable output are escaped", () => {
  it("escapeControls keeps newlines and tabs, shows everything else as \\u escapes (JSON-equivalent), and lets only Cave's own colours through", () => {
    expect(escapeControls(`a\tb\nc${ATTACK}`, false)).toBe("a\tb\nc\\u001b[2K\\u001b[1A\\u000d\\u009b2K\\u202e\\u2028");
    expect(JSON.parse(`"${escapeControls("x\u009by\u2028", false)}"`)).toBe("x\u009by\u2028");
    expect(escapeControls("\u001b[31mred\u001b[39m", true)).toBe("\u001b[31mred\u001b[39m");
    expect(escapeControls("\u001b[31mred\u001b[39m", false)).toBe("\\u001b[31mred\\u001b[39m");
    expect(escapeControls("\u001b[2K", true)).toBe("\\u001b[2K");
  });

  it("cave build, explain, diff and call never print a raw control character from a description or a tool's error", async () => {
    const root = writeProject({
      "tools.ts": tools("Safe tool."),
      "package.json": JSON.stringify({ name: "esc", type: "module" }),
    });
    expect((await cave(["build"], root)).code).toBe(0);
    copyFileSync(join(root, "cave.lock"), join(root, "base.lock"));
    writeFileSync(join(root, "tools.ts"), tools(`Reads things.${ATTACK}  + nothing risky here`));
    const built = await cave(["build"], root);
    expect(built.code).toBe(0);
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toContain("\\u001b");

    const runs = {
      build: built,
      explain: await cave(["explain", "shady"], root),
      diff: await cave(["diff", "base.lock", "cave.lock"], root),
      markdown: await cave(["diff", "base.lock", "cave.lock", "--format", "markdown"], root),
      tty: await cave(["diff", "base.lock", "cave.lock"], root, {}, true),
      call: await cave(["call", "shady"], root),
      callJson: await cave(["call", "shady", "--json"], root),
    };
    for (const [name, run] of Object.entries(runs)) {
      const all = run.stdout + run.stderr;
      const printable = name === "tty" ? all.replace(/\u001b\[(1|2|22|31|32|33|36|39)m/g, "") : all;
      expect(RAW.test(printable), `${name} printed a raw control character: ${JSON.stringify(all)}`).toBe(false);
    }
    expect(runs.explain.stdout).toContain("Reads things.\\u001b[2K\\u001b[1A");
    expect(runs.explain.stdout).toContain("\\u009b2K\\u202e");
    expect(runs.diff.stdout).toContain("\\u001b[2K");
    expect(runs.call.stderr).toContain("boom \\u001b[2K");
    expect(JSON.parse(runs.callJson.stdout).error.message).toContain(`boom ${ATTACK} fine`);
  }, 120_000);

  it("a diagnostic's code frame shows a source line with an escape sequence escaped", async () => {
    const root = writeProject({
      "tools.ts": `import { tool, schema } from "cave";\nconst n = "x"; /* \u001b[2K\u001b[1A */ export const t = tool({ name: n + "y", description: "d", input: schema.object({}), effect: "read", execute() { return 1; } });\n`,
      "package.json": JSON.stringify({ name: "esc", type: "module" }),
    });
    const run = await cave(["build"], root);
    expect(run.code).toBe(1);
    expect(RAW.test(run.stderr), JSON.stringify(run.stderr)).toBe(false);
    expect(run.stderr).toContain("\\u001b[2K");
  }, 120_000);
});
