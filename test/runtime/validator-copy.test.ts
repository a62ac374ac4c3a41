// The runtime's loader compiles each validator from the bytes it verified, in memory (docs/decisions.md, "Validators
// compiled in memory from the verified bytes"): nothing is written to the private copy, and a module swapped in the
// build folder afterwards is never what runs.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Loader } from "../../runtime/loading/loader.js";
import { AJV_PART_LINE } from "../../runtime/loading/validator-module.js";
import type { PrivateCopy } from "../../runtime/loading/private-copy.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(removeCopies);

describe("validators compiled from the verified bytes", () => {
  it("compiles the verified module without writing it anywhere and validates with it; a later swap in the build folder changes nothing", async () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<string, { input: { validation: { kind: string; module: string; sha256: string } } | null }>;
    };
    const [name, entry] = Object.entries(lock.tools).find(([, tool]) => tool.input?.validation.kind === "precompiled")!;
    const validation = entry.input!.validation;
    const original = readFileSync(join(root, validation.module));
    const loader = new Loader(root);
    try {
      const validator = await loader.validator(name, "input", validation);
      expect((loader as unknown as { copy: PrivateCopy | undefined }).copy).toBeUndefined();
      writeFileSync(
        join(root, validation.module),
        `${original.toString("utf8")}\nglobalThis.__caveValidatorSwapped = true;\n`,
      );
      // Loaded once per runtime: the same validator, and nothing of the swapped file ran.
      expect(await loader.validator(name, "input", validation)).toBe(validator);
      expect(typeof validator.validate({}).ok).toBe("boolean");
      expect((globalThis as { __caveValidatorSwapped?: boolean }).__caveValidatorSwapped).toBeUndefined();
      // Another runtime reads the swapped file, refuses it and places nothing.
      const other = new Loader(root);
      try {
        await expect(other.validator(name, "input", validation)).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
        expect((other as unknown as { copy: PrivateCopy | undefined }).copy).toBeUndefined();
      } finally {
        other.dispose();
      }
      expect((globalThis as { __caveValidatorSwapped?: boolean }).__caveValidatorSwapped).toBeUndefined();
    } finally {
      writeFileSync(join(root, validation.module), original);
      loader.dispose();
    }
  });

  it("keeps Ajv's part as the verified bytes: swapped in the build folder after load, an invalid value still gets Ajv's issues from what was verified", async () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<string, { input: { validation: { kind: string; module: string; sha256: string } } | null }>;
    };
    const [name, entry] = Object.entries(lock.tools).find(
      ([, tool]) =>
        tool.input?.validation.kind === "precompiled" &&
        readFileSync(join(root, tool.input.validation.module), "utf8").includes(`\n${AJV_PART_LINE}\n`),
    )!;
    const validation = entry.input!.validation;
    const original = readFileSync(join(root, validation.module));
    const loader = new Loader(root);
    try {
      const validator = await loader.validator(name, "input", validation);
      writeFileSync(join(root, validation.module), "globalThis.__caveAjvPartSwapped = true;\n");
      const refused = validator.validate({});
      expect(refused.ok).toBe(false);
      const issues = (refused as { issues: readonly { message: string }[] }).issues;
      expect(issues.length).toBeGreaterThan(0);
      expect(issues.map((issue) => issue.message).join("; ")).not.toContain("could not be validated");
      expect((globalThis as { __caveAjvPartSwapped?: boolean }).__caveAjvPartSwapped).toBeUndefined();
    } finally {
      writeFileSync(join(root, validation.module), original);
      loader.dispose();
    }
  });
});
