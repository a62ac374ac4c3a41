// `cave --version` and `-v`: the version is read at run time from the package's own package.json, not written
// into the CLI, and the output names no path of this machine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/golden.js";
import { cave, expectRelativeOnly } from "./helpers.js";

const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("cave --version", () => {
  for (const flag of ["--version", "-v"]) {
    it(`${flag} prints package.json's version and exits 0`, async () => {
      const run = await cave([flag], REPO_ROOT);
      expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
      expectRelativeOnly(run, REPO_ROOT);
    });
  }

  it("the usage text names the flag", async () => {
    const run = await cave(["--help"], REPO_ROOT);
    expect(run.stdout).toContain("cave --version | -v");
  });
});
