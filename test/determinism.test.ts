import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../compiler/build.js";
import { REPO_ROOT } from "./support/golden.js";
import { copyProject, removeCopies } from "./support/projects.js";

afterAll(removeCopies);

describe("determinism", () => {
  it("builds the example byte-identically from two different roots and file orders", async () => {
    const first = copyProject("examples/support-desk", { depth: 0 });
    const second = copyProject("examples/support-desk", { depth: 3, reverse: true });
    const a = await build({ root: first });
    const b = await build({ root: second });
    expect(a.diagnostics).toEqual([]);
    expect(b.diagnostics).toEqual([]);
    expect(readFileSync(join(second, "cave.lock"), "utf8")).toBe(readFileSync(join(first, "cave.lock"), "utf8"));
    expect([...b.files.keys()]).toEqual([...a.files.keys()]);
    for (const [path, code] of a.files) {
      expect(readFileSync(join(second, path), "utf8"), path).toBe(code);
    }
    // Nothing of either machine path leaks into the outputs.
    for (const [root, result] of [
      [first, a],
      [second, b],
    ] as const) {
      const everything = [result.lockText!, ...result.files.values()].join("\n");
      expect(everything).not.toContain(root);
      expect(everything).not.toContain(REPO_ROOT);
      expect(everything).not.toContain("/tmp/");
    }
  });

  it("cave.lock.example is the example's lock (regenerate with CAVE_UPDATE_GOLDEN=1)", async () => {
    const root = copyProject("examples/support-desk");
    const result = await build({ root, write: false });
    expect(result.ok).toBe(true);
    const { expectGolden } = await import("./support/golden.js");
    expectGolden(join(REPO_ROOT, "cave.lock.example"), result.lockText);
  });

  it("the example builds in place, over its own node_modules (npm ci in examples/support-desk, as .ci/run does), to cave.lock.example", async () => {
    const result = await build({ root: join(REPO_ROOT, "examples/support-desk"), write: false });
    expect(result.diagnostics).toEqual([]);
    expect(result.lockText).toBe(readFileSync(join(REPO_ROOT, "cave.lock.example"), "utf8"));
  });
});
