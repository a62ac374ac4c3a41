// The runtime's loader compiles each validator from the bytes it verified, in memory (docs/decisions.md, "Validators
// compiled in memory from the verified bytes"): nothing is written to the private copy, and a module swapped in the
// build folder afterwards is never what runs.
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../runtime/index.js";
import { Loader } from "../../runtime/loading/loader.js";
import { AJV_PART_LINE, TIER_UP_WALKS } from "../../runtime/loading/validator-module.js";
import { sha256 } from "../../src/contract/hash.js";
import type { PrivateCopy } from "../../runtime/loading/private-copy.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(removeCopies);

describe("validators compiled from the verified bytes", () => {
  it("compiles the verified module without writing it anywhere and validates with it; a later swap in the build folder never runs", async () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<
        string,
        { input: { jsonSchema: unknown; validation: { kind: string; module: string; sha256: string } } | null }
      >;
    };
    const [name, entry] = Object.entries(lock.tools).find(([, tool]) => tool.input?.validation.kind === "precompiled")!;
    const validation = entry.input!.validation;
    const original = readFileSync(join(root, validation.module));
    const loader = new Loader(root);
    try {
      const validator = await loader.validator(name, "input", entry.input!);
      expect((loader as unknown as { copy: PrivateCopy | undefined }).copy).toBeUndefined();
      writeFileSync(
        join(root, validation.module),
        `${original.toString("utf8")}\nglobalThis.__caveValidatorSwapped = true;\n`,
      );
      // Loaded once per runtime: the same validator, and nothing of the swapped file ran.
      expect(await loader.validator(name, "input", entry.input!)).toBe(validator);
      // A verdict, or (Ajv's part being read again for a value its walk cannot decide) the swap refused.
      let verdict: unknown;
      try {
        verdict = validator.validate({}).ok;
      } catch (thrown) {
        verdict = (thrown as { code?: unknown }).code;
      }
      expect([true, false, "LOCK_MISMATCH"]).toContain(verdict);
      expect((globalThis as { __caveValidatorSwapped?: boolean }).__caveValidatorSwapped).toBeUndefined();
      // Another runtime reads the swapped file, refuses it and places nothing.
      const other = new Loader(root);
      try {
        await expect(other.validator(name, "input", entry.input!)).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
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

  it("reads Ajv's part again when a value first needs it, verified again: the same file gives Ajv's issues, a file changed since load is refused with LOCK_MISMATCH and never runs", async () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<
        string,
        { input: { jsonSchema: unknown; validation: { kind: string; module: string; sha256: string } } | null }
      >;
    };
    const withAjvPart = Object.entries(lock.tools).filter(
      ([, tool]) =>
        tool.input?.validation.kind === "precompiled" &&
        readFileSync(join(root, tool.input.validation.module), "utf8").includes(`\n${AJV_PART_LINE}\n`),
    );
    expect(withAjvPart.length).toBeGreaterThan(0);
    const [name, entry] = withAjvPart[0]!;
    const validation = entry.input!.validation;
    const original = readFileSync(join(root, validation.module));
    const loader = new Loader(root);
    try {
      // Unchanged: Ajv's part compiled from the file read again gives Ajv's issues.
      const same = await loader.validator(name, "input", entry.input!);
      const refused = same.validate({});
      expect(refused.ok).toBe(false);
      const issues = (refused as { issues: readonly { message: string }[] }).issues;
      expect(issues.length).toBeGreaterThan(0);
      expect(issues.map((issue) => issue.message).join("; ")).not.toContain("could not be validated");
    } finally {
      loader.dispose();
    }
    const second = new Loader(root);
    try {
      const validator = await second.validator(name, "input", entry.input!);
      // Same length and same serializer part: only Ajv's part differs, so only the hash can tell.
      const text = original.toString("utf8");
      const at = text.indexOf(`\n${AJV_PART_LINE}\n`) + AJV_PART_LINE.length + 2;
      const swapped = `${text.slice(0, at)}globalThis.__caveAjvPartSwapped = true;`.padEnd(text.length, " ");
      writeFileSync(join(root, validation.module), swapped);
      let thrown: unknown;
      try {
        validator.validate({});
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: "LOCK_MISMATCH" });
      expect((thrown as Error).message).toContain(
        `validator module ${validation.module} changed in the build folder after this runtime loaded it`,
      );
      expect((thrown as Error).message).toContain("Restart the runtime");
      expect((globalThis as { __caveAjvPartSwapped?: boolean }).__caveAjvPartSwapped).toBeUndefined();
      // Removed altogether: refused the same way, with the reason.
      unlinkSync(join(root, validation.module));
      expect(() => validator.validate({})).toThrow(/can no longer be read \(ENOENT\) since this runtime loaded it/);
      // Values its walk decides still need no file.
      expect(typeof validator.canonical).toBe("function");
    } finally {
      writeFileSync(join(root, validation.module), original);
      second.dispose();
    }
  });

  it("a call whose input needs Ajv's part, after the file changed under a running runtime, ends with LOCK_MISMATCH and the tool never runs", async () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<string, { input: { validation: { kind: string; module: string } } | null; sandbox: string }>;
    };
    // lookup: a closed object, so its validator has a walk and Ajv's part; a region of one character only Ajv explains.
    const name = "lookup";
    const entry = lock.tools[name]!;
    expect(readFileSync(join(root, entry.input!.validation.module), "utf8")).toContain(`\n${AJV_PART_LINE}\n`);
    const file = join(root, entry.input!.validation.module);
    const original = readFileSync(file);
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      // Loads the validator; its walk accepts the value, so Ajv's part is not read yet.
      const first = await runtime.call(name, { region: "eu" });
      expect(first.ok).toBe(true);
      writeFileSync(file, "globalThis.__caveAjvPartSwappedCall = true;\n");
      const second = await runtime.call(name, { region: "e" });
      expect(second.ok === false && second.error.code).toBe("LOCK_MISMATCH");
      expect(second.ok === false && second.error.message).toContain("Restart the runtime");
      expect(second.receipt.isolation).toBeNull();
      expect((globalThis as { __caveAjvPartSwappedCall?: boolean }).__caveAjvPartSwappedCall).toBeUndefined();
    } finally {
      writeFileSync(file, original);
    }
  });

  it("a call whose output needs Ajv's part, after the file changed under a running runtime, ends with LOCK_MISMATCH naming the file (not OUTPUT_INVALID)", async () => {
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<string, { output: { validation: { module: string } } }>;
    };
    // bad_output: a closed {value: number}; its output is valid for { secret: "value", asKey: true } and a string
    // value (which only Ajv explains) otherwise.
    const module = lock.tools.bad_output!.output.validation.module;
    const file = join(root, module);
    const original = readFileSync(file);
    expect(original.toString("utf8")).toContain(`\n${AJV_PART_LINE}\n`);
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      const first = await runtime.call("bad_output", { secret: "value", asKey: true });
      expect(first.ok).toBe(true);
      writeFileSync(file, "globalThis.__caveOutputPartSwapped = true;\n");
      const second = await runtime.call("bad_output", { secret: "SENTINEL-4711", asKey: false });
      expect(second.ok === false && second.error.code).toBe("LOCK_MISMATCH");
      expect(second.ok === false && second.error.message).toContain(`validator module ${module}`);
      expect(second.ok === false && second.error.message).toContain("Restart the runtime");
      expect(JSON.stringify(second)).not.toContain("SENTINEL-4711");
      expect((globalThis as { __caveOutputPartSwapped?: boolean }).__caveOutputPartSwapped).toBeUndefined();
    } finally {
      writeFileSync(file, original);
    }
  });

  describe("validators tier up", () => {
    type Entry = { jsonSchema: unknown; validation: { kind: string; module: string; sha256: string } };
    /** lookup's input validator with a statement counting each compiling of its serializer part, the hash given to the loader its own. */
    function countedLookup(): { name: string; locked: Entry; file: string; original: Buffer } {
      const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
        tools: Record<string, { input: Entry }>;
      };
      const entry = lock.tools.lookup!.input;
      const file = join(root, entry.validation.module);
      const original = readFileSync(file);
      const text = original.toString("utf8");
      expect(text).toContain(`\n${AJV_PART_LINE}\n`);
      const counted = text.replace(
        '"use strict";\n',
        '"use strict";\nglobalThis.__caveWalkCompiled = (globalThis.__caveWalkCompiled ?? 0) + 1;\n',
      );
      expect(counted).not.toBe(text);
      writeFileSync(file, counted);
      return {
        name: "lookup",
        locked: { jsonSchema: entry.jsonSchema, validation: { ...entry.validation, sha256: sha256(counted) } },
        file,
        original,
      };
    }
    /** Runs `body` on the counted validator with a fresh loader, then puts the file back. */
    async function withCountedLookup(
      body: (counted: { name: string; locked: Entry; file: string; loader: Loader }) => Promise<void>,
    ): Promise<void> {
      const { name, locked, file, original } = countedLookup();
      const loader = new Loader(root);
      try {
        await body({ name, locked, file, loader });
      } finally {
        writeFileSync(file, original);
        loader.dispose();
      }
    }
    const compiled = () => (globalThis as { __caveWalkCompiled?: number }).__caveWalkCompiled ?? 0;

    it("walks a schema's first values interpreted, compiling nothing of the file; the TIER_UP_WALKS-th walk compiles the emitted walk, which every later walk takes, with the same answers", async () => {
      await withCountedLookup(async ({ name, locked, loader }) => {
        const before = compiled();
        const validator = await loader.validator(name, "input", locked);
        const interpreted = validator.canonical!;
        const answers: unknown[] = [];
        for (let walk = 1; walk < TIER_UP_WALKS; walk++) answers.push(validator.canonical!({ region: "EU" }, 1_000));
        expect(compiled()).toBe(before);
        expect(validator.canonical).toBe(interpreted);
        answers.push(validator.canonical!({ region: "EU" }, 1_000));
        expect(compiled()).toBe(before + 1);
        expect(validator.canonical).not.toBe(interpreted);
        for (let walk = 0; walk < 5; walk++) answers.push(validator.canonical!({ region: "EU" }, 1_000));
        expect(compiled()).toBe(before + 1);
        for (const answer of answers) expect(answer).toEqual(answers[0]);
        expect(answers[0]).toMatchObject({ value: { region: "EU" }, valid: true });
        // Ajv's part, for a value the walk leaves to it, gives the same issue before and after.
        expect(validator.validate({ region: "e" })).toMatchObject({ ok: false });
      });
    });

    it("verifies the file on first use although it compiles nothing: a changed file is LOCK_MISMATCH at the first call", async () => {
      await withCountedLookup(async ({ name, locked, file, loader }) => {
        writeFileSync(file, `${readFileSync(file, "utf8")}\n// changed\n`);
        await expect(loader.validator(name, "input", locked)).rejects.toMatchObject({ code: "LOCK_MISMATCH" });
      });
    });

    it("stays interpreted when the file changed after it was verified: answers unchanged, nothing of the change runs, a value that needs Ajv is LOCK_MISMATCH", async () => {
      await withCountedLookup(async ({ name, locked, file, loader }) => {
        const before = compiled();
        const validator = await loader.validator(name, "input", locked);
        const interpreted = validator.canonical!;
        writeFileSync(file, "globalThis.__caveWalkCompiled = 1000;\n");
        for (let walk = 0; walk < 2 * TIER_UP_WALKS; walk++)
          expect(validator.canonical!({ region: "EU" }, 1_000)).toMatchObject({ valid: true });
        expect(validator.canonical).toBe(interpreted);
        expect(compiled()).toBe(before);
        expect(validator.validate({ region: "EU" })).toEqual({ ok: true });
        expect(() => validator.validate({ region: "e" })).toThrow(
          /changed in the build folder after this runtime loaded it/,
        );
      });
    });
  });
});
