import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULTS, RUNTIME_CODES, TRANSIENT_ERROR_CODES } from "../../runtime/index.js";
import { REPO_ROOT } from "../support/golden.js";

const doc = readFileSync(join(REPO_ROOT, "docs", "runtime.md"), "utf8");

/** The pipeline's own codes (the child-process sandbox adds its outcomes to the registry and documents them itself). */
const PIPELINE_CODES = [
  "UNKNOWN_TOOL",
  "INPUT_INVALID",
  "INPUT_TOO_LARGE",
  "OUTPUT_INVALID",
  "OUTPUT_NOT_SERIALISABLE",
  "OUTPUT_TOO_LARGE",
  "TIMEOUT",
  "EFFECT_BLOCKED",
  "REPEAT_STOPPED",
  "NESTED_NOT_DECLARED",
  "PARENT_SETTLED",
  "BUDGET_EXCEEDED",
  "BREAKER_OPEN",
  "TOOL_ERROR",
  "LOCK_MISMATCH",
  "LOCK_INVALID",
  "LOCK_VERSION_UNSUPPORTED",
  "LOCK_NOT_FOUND",
  "OPTIONS_INVALID",
  "SANDBOX_UNAVAILABLE",
  "CANCELLED",
  "INPUT_TOO_DEEP",
  "OUTPUT_TOO_DEEP",
  "RUNTIME_FAULT",
];

describe("docs/runtime.md", () => {
  it.each(PIPELINE_CODES)("documents %s, a registered runtime code", (code) => {
    expect(Object.keys(RUNTIME_CODES)).toContain(code);
    expect(doc).toContain(`\`${code}\``);
  });

  it("states the defaults the code uses", () => {
    expect(doc).toContain(`| \`budget.maxCalls\` | \`${DEFAULTS.budget.maxCalls}\``);
    expect(doc).toContain(`| \`budget.maxWallMs\` | \`${DEFAULTS.budget.maxWallMs}\``);
    expect(doc).toContain(`| \`breaker.failureThreshold\` | \`${DEFAULTS.breaker.failureThreshold}\``);
    expect(doc).toContain(`| \`breaker.cooldownMs\` | \`${DEFAULTS.breaker.cooldownMs}\``);
    expect(doc).toContain(`| \`limits.maxInputBytes\` | \`${DEFAULTS.limits.maxInputBytes}\``);
    expect(doc).toContain(`| \`limits.maxOutputBytes\` | \`${DEFAULTS.limits.maxOutputBytes}\``);
    expect(doc).toContain(`| \`retry.maxAttempts\` | \`${DEFAULTS.retry.maxAttempts}\``);
  });

  it("lists every transient error code", () => {
    for (const code of TRANSIENT_ERROR_CODES) expect(doc).toContain(`\`${code}\``);
  });
});
