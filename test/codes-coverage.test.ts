import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODES } from "../src/contract/codes.js";
import { REPO_ROOT } from "./support/golden.js";

/**
 * Codes that no project fixture can produce (they need a broken file system or a bad programmatic call),
 * each with the test file that does produce it. Everything else must appear in some fixture's expected diagnostics.
 */
const PRODUCED_BY_TESTS: Record<string, string> = {
  CAVE3001: "test/compiler/analyse.test.ts",
  // Evaluation carries schemas as JSON, so a value that is not JSON data never reaches the pass from a project.
  CAVE6001: "test/compiler/validators.test.ts",
  CAVE6011: "test/compiler/validators.test.ts",
  CAVE2007: "test/compiler/build.test.ts",
  // Needs an isolation setting from the environment, which a fixture does not carry.
  CAVE5160: "test/compiler/evaluate-isolation.test.ts",
  CAVE8001: "test/compiler/build.test.ts",
  // Lock checks: they need a built project that is then tampered with, or a command line.
  CAVE9001: "test/cli/verify.test.ts",
  CAVE9002: "test/cli/verify.test.ts",
  CAVE9003: "test/cli/verify.test.ts",
  CAVE9004: "test/cli/verify.test.ts",
  CAVE9005: "test/cli/verify.test.ts",
  CAVE9006: "test/cli/verify.test.ts",
  CAVE9007: "test/cli/verify.test.ts",
  CAVE9008: "test/cli/verify.test.ts",
  CAVE9009: "test/cli/verify.test.ts",
  CAVE9010: "test/cli/verify.test.ts",
  CAVE9011: "test/cli/verify.test.ts",
  CAVE9020: "test/cli/build-modes.test.ts",
  CAVE9030: "test/cli/diff-git.test.ts",
  CAVE9031: "test/cli/diff-git.test.ts",
  CAVE9040: "test/cli/explain.test.ts",
  // An external package not installed when the build imports the module: the example without better-sqlite3.
  CAVE5161: "test/sandbox/order-store-example.test.ts",
  CAVE9120: "test/compat/better-sqlite3.test.ts",
  // cave runs: they need a journal (or none) on disk.
  CAVE9220: "test/cli/runs.test.ts",
  CAVE9221: "test/cli/runs.test.ts",
  CAVE9222: "test/cli/runs.test.ts",
};

describe("code registry coverage", () => {
  const fixtures = join(REPO_ROOT, "fixtures");
  const seen = new Set<string>();
  for (const name of readdirSync(fixtures)) {
    const file = join(fixtures, name, "expected-diagnostics.txt");
    if (!existsSync(file)) continue;
    for (const match of readFileSync(file, "utf8").matchAll(/\b(CAVE\d{4})\b/g)) seen.add(match[1]!);
  }
  const compilerCodes = Object.keys(CODES).filter((code) => /^CAVE\d{4}$/.test(code));

  it.each(compilerCodes)("%s is produced by a fixture or a named test", (code) => {
    const test = PRODUCED_BY_TESTS[code];
    if (test) {
      expect(readFileSync(join(REPO_ROOT, test), "utf8"), `${test} must exercise ${code}`).toContain(code);
    } else {
      expect(
        seen.has(code),
        `no fixtures/*/expected-diagnostics.txt contains ${code}: add a fixture that produces it`,
      ).toBe(true);
    }
  });

  it("every code a fixture reports is registered", () => {
    for (const code of seen) expect(Object.keys(CODES)).toContain(code);
  });
});
