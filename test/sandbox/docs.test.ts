import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SANDBOX_DEFAULTS } from "../../runtime/sandbox/index.js";
import { SANDBOX_CODES } from "../../src/contract/codes/sandbox.js";
import { RUNTIME_CODES } from "../../src/contract/codes/runtime.js";
import { REPO_ROOT } from "../support/golden.js";

const doc = readFileSync(join(REPO_ROOT, "docs", "sandbox.md"), "utf8");

describe("docs/sandbox.md", () => {
  it.each(Object.keys(SANDBOX_CODES).filter((code) => !["ENTRY_PATH_REQUIRED", "RUN_NOT_STAGED"].includes(code)))(
    "documents the outcome %s, a registered runtime code",
    (code) => {
      expect(Object.keys(RUNTIME_CODES)).toContain(code);
      expect(doc).toContain(`| \`${code}\` |`);
    },
  );

  it("names the errors of ordinary runs", () => {
    expect(doc).toContain("`ENTRY_PATH_REQUIRED`");
    expect(doc).toContain("`RUN_NOT_STAGED`");
  });

  it("states the defaults the code uses", () => {
    for (const [key, value] of Object.entries(SANDBOX_DEFAULTS))
      expect(doc).toContain(`| \`${key}\` | \`${JSON.stringify(value)}\` |`);
  });
});
