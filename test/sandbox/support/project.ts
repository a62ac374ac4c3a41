import { expect } from "vitest";
import { build } from "../../../compiler/build.js";
import { copyProject } from "../../support/projects.js";

/** Copies test/sandbox/projects/<name> to a temporary root and builds it with the real compiler; returns the root. */
export async function builtProject(name: string): Promise<string> {
  const root = copyProject(`test/sandbox/projects/${name}`);
  const result = await build({ root });
  expect(
    result.diagnostics.filter((d) => d.severity === "error"),
    "the test project must build",
  ).toEqual([]);
  expect(result.ok).toBe(true);
  return root;
}
