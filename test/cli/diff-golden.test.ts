import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectGolden, UPDATE_GOLDEN } from "../support/golden.js";
import { removeCopies } from "../support/projects.js";
import { DIFF_CASES, DIFF_FIXTURES, editedProject, lockOf, writeCaseLocks } from "./diff-cases.js";
import { cave, expectRelativeOnly } from "./helpers.js";
import { afterAll } from "vitest";

afterAll(removeCopies);

describe("cave diff golden cases (fixtures/diff/<case>)", () => {
  if (UPDATE_GOLDEN) it("regenerates every case's base.lock and head.lock with the compiler", async () => writeCaseLocks(), 900_000);
  else {
    it("base.lock of every case is the lock the compiler writes for the base project today", async () => {
      const current = await lockOf(editedProject([]), "the base project");
      for (const c of DIFF_CASES) expect(readFileSync(join(DIFF_FIXTURES, c.name, "base.lock"), "utf8"), `${c.name}/base.lock is stale: run CAVE_UPDATE_GOLDEN=1 npx vitest run test/cli/diff-golden.test.ts`).toBe(current);
    });
  }

  it("has one folder per case and no other", () => {
    expect(readdirSync(DIFF_FIXTURES).sort()).toEqual(DIFF_CASES.map((c) => c.name).sort());
  });

  it.each(DIFF_CASES.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const dir = join(DIFF_FIXTURES, name);
    expect(existsSync(join(dir, "head.lock"))).toBe(true);
    for (const [format, file] of [["text", "expected.txt"], ["markdown", "expected.md"], ["json", "expected.json"]] as const) {
      const run = await cave(["diff", "base.lock", "head.lock", "--format", format], dir);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expectRelativeOnly(run, dir);
      expectGolden(join(dir, file), run.stdout);
    }
    const exit = await cave(["diff", "base.lock", "head.lock", "--exit-code", "--json"], dir);
    expect(exit.code, c.about).toBe(c.edits.length === 0 ? 0 : 2);
    const parsed = JSON.parse(exit.stdout) as { changed: boolean; changes: Array<{ impact: string }> };
    expect(parsed.changed).toBe(c.edits.length > 0);
  });
});
