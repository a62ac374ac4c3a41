import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectGolden, UPDATE_GOLDEN } from "../support/golden.js";
import { removeCopies } from "../support/projects.js";
import { inspectLock } from "../../runtime/lock/deploy-check.js";
import { DIFF_CASES, DIFF_FIXTURES, writeCaseLocks } from "./diff-cases.js";
import { cave, expectRelativeOnly } from "./helpers.js";

afterAll(removeCopies);

describe("cave diff golden cases (fixtures/diff/<case>)", () => {
  if (UPDATE_GOLDEN)
    it("regenerates every case's base.lock and head.lock with the compiler", async () => writeCaseLocks(), 900_000);
  // The locks are not rebuilt on every run: the staged SDK is part of every source graph, so any edit of src/
  // moves their hashes. They were written by the compiler (writeCaseLocks) and must still be untouched locks.
  it("every case's locks are intact locks, as the compiler wrote them", () => {
    for (const c of DIFF_CASES) {
      for (const file of ["base.lock", "head.lock"]) {
        const shown = `${c.name}/${file}`;
        const inspected = inspectLock(readFileSync(join(DIFF_FIXTURES, c.name, file), "utf8"), shown);
        expect(inspected.problems, shown).toEqual([]);
        expect(inspected.lock, shown).not.toBeNull();
      }
    }
  });

  it("has one folder per case and no other", () => {
    expect(readdirSync(DIFF_FIXTURES).sort()).toEqual(DIFF_CASES.map((c) => c.name).sort());
  });

  it.each(DIFF_CASES.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const dir = join(DIFF_FIXTURES, name);
    expect(existsSync(join(dir, "head.lock"))).toBe(true);
    for (const [format, file] of [
      ["text", "expected.txt"],
      ["markdown", "expected.md"],
      ["json", "expected.json"],
    ] as const) {
      const run = await cave(["diff", "base.lock", "head.lock", "--format", format], dir);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expectRelativeOnly(run, dir);
      expectGolden(join(dir, file), run.stdout);
    }
    const exit = await cave(["diff", "base.lock", "head.lock", "--exit-code", "--json"], dir);
    const changed = c.edits.length > 0 || c.baseEdits !== undefined;
    expect(exit.code, c.about).toBe(changed ? 2 : 0);
    const parsed = JSON.parse(exit.stdout) as {
      changed: boolean;
      changes: Array<{ kind: string; impact: string; subject: { name: string } }>;
    };
    expect(parsed.changed).toBe(changed);
    const found = parsed.changes.map((change) => `${change.kind}:${change.impact}:${change.subject.name}`);
    for (const expected of c.shows) expect(found, `${name}: ${c.about}`).toContain(expected);
  });
});
