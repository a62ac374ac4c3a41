import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { build } from "../compiler/build.js";
import { expectGolden, REPO_ROOT } from "./support/golden.js";
import { renderAll } from "./support/render.js";

const FIXTURES = join(REPO_ROOT, "fixtures");
// fixtures/diff holds cave diff golden cases (test/cli/diff-golden.test.ts), not a project.
const cases = readdirSync(FIXTURES)
  .filter((name) => name !== "diff" && statSync(join(FIXTURES, name)).isDirectory())
  .sort();

/**
 * Golden fixtures: each fixtures/<case>/ is a project. Its expected outputs sit beside the inputs:
 * expected.lock (absent when the build fails) and expected-diagnostics.txt (absent when there are none).
 */
describe("golden fixtures", () => {
  it.each(cases)("%s", async (name) => {
    const root = join(FIXTURES, name);
    const result = await build({ root, write: false });
    expectGolden(join(root, "expected.lock"), result.lockText);
    expectGolden(
      join(root, "expected-diagnostics.txt"),
      result.diagnostics.length > 0 ? renderAll(result.diagnostics, root) : null,
    );
  });
});
