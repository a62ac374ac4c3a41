import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVE_USAGE, SERVE_BUDGET } from "../../compiler/cli/commands/serve.js";
import { RUNTIME_CODES } from "../../runtime/index.js";
import { REPO_ROOT } from "../support/golden.js";

const doc = readFileSync(join(REPO_ROOT, "docs", "adapters.md"), "utf8");

describe("docs/adapters.md", () => {
  it.each(Object.keys(RUNTIME_CODES))("says what host and model see for %s", (code) => {
    expect(doc).toContain(`\`${code}\``);
  });

  it("documents every cave serve flag and the serve budgets", () => {
    for (const flag of SERVE_USAGE.match(/--[a-z-]+/g)!) expect(doc).toContain(flag);
    expect(doc).toContain(`${SERVE_BUDGET.maxCalls.toLocaleString("en-US")} calls and 24 hours`);
    expect(SERVE_BUDGET.maxWallMs).toBe(24 * 60 * 60 * 1000);
  });
});
