// The plan the build writes on a validator's second line (runtime/canonical/plan-text.ts, compiler/validators/assemble.ts)
// and the runtime interprets for a schema's first walks (runtime/loading/validator-module.ts): one line, read back as
// exactly the plan the serializer was emitted from, and a file without one still walked from the locked schema's plan.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { assembleValidator } from "../../compiler/validators/assemble.js";
import { compileValidators } from "../../compiler/validators/index.js";
import { canonicalPlan } from "../../runtime/canonical/plan.js";
import { planFromText, planText } from "../../runtime/canonical/plan-text.js";
import { loadTieredValidator, PLAN_LINE } from "../../runtime/loading/validator-module.js";
import { snapshotJson } from "../../runtime/pipeline/json-data.js";
import { canonicalJson, sha256 } from "../../src/contract/hash.js";
import { NINE, nineValue } from "../support/canonical.js";

/** JavaScript's line terminators: U+2028 and U+2029 end a comment line as a line feed does. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** Keys, an enum value and a pattern holding the characters a line of text must not: a plan line stays one line. */
const SEPARATORS = {
  type: "object",
  additionalProperties: false,
  required: ["a\u2028b"],
  properties: {
    "a\u2028b": { type: "string", pattern: "^[^\u2029]*$", maxLength: 8 },
    "c\u2029\n": { enum: ["x\u2028", 1, null, true] },
    nullable: { type: ["number", "null"], minimum: -0.5, multipleOf: 2 },
    grid: { type: "array", maxItems: 3, items: { type: "array", items: { type: "integer" } } },
  },
};
const separatorsValue = () => ({ "c\u2029\n": "x\u2028", nullable: null, grid: [[1, 2], []], "a\u2028b": "ok" });

describe("a validator's plan line", () => {
  it("is one line of JSON that gives back exactly the plan, Sets included", () => {
    for (const schema of [
      NINE,
      SEPARATORS,
      { type: "string" },
      { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
    ]) {
      const plan = canonicalPlan(schema)!;
      const text = planText(plan);
      expect(text).not.toMatch(LINE_TERMINATOR);
      expect(isDeepStrictEqual(planFromText(text), plan)).toBe(true);
    }
  });

  /** Each compiling of a file's serializer part adds one (the statement is put after its "use strict"). */
  const compiles = () => (globalThis as { __cavePlanLineCompiles?: number }).__cavePlanLineCompiles ?? 0;
  const COUNT = "globalThis.__cavePlanLineCompiles = (globalThis.__cavePlanLineCompiles ?? 0) + 1;\n";

  /** The validators of `schemas` as the build writes them, each with the counting statement: [schema, path, code]. */
  async function built(
    root: string,
    schemas: readonly Record<string, unknown>[],
  ): Promise<Array<[Record<string, unknown>, string, string]>> {
    const result = await compileValidators(
      root,
      ".cave",
      schemas.map((jsonSchema, i) => ({ jsonSchema, owner: `tool "t${i}" input` })),
    );
    expect(result.diagnostics).toEqual([]);
    return [...result.validators.values()].map((module) => {
      const schema = schemas.find((candidate) => sha256(canonicalJson(candidate)) === module.schemaSha256)!;
      const code = module.code.replace('"use strict";\n', `"use strict";\n${COUNT}`);
      expect(code).not.toBe(module.code);
      mkdirSync(join(root, module.path, ".."), { recursive: true });
      return [schema, module.path, code];
    });
  }

  it("is written by the build on the second line, read from the verified file, and interpreted: nothing compiled", async () => {
    const root = mkdtempSync(join(tmpdir(), "cave-plan-line-"));
    try {
      const modules = await built(root, [NINE, SEPARATORS]);
      expect(modules.map(([schema]) => schema)).toEqual(expect.arrayContaining([NINE, SEPARATORS]));
      for (const [schema, path, code] of modules) {
        writeFileSync(join(root, path), code);
        const line = code.split("\n")[1]!;
        expect(line.startsWith(PLAN_LINE)).toBe(true);
        // The plan of the schema as the lock holds it (canonical JSON: its keys, `properties` too, in code-unit order).
        const locked = JSON.parse(canonicalJson(schema)) as unknown;
        expect(isDeepStrictEqual(planFromText(line.slice(PLAN_LINE.length)), canonicalPlan(locked))).toBe(true);
        // Given a schema without a plan, the walk is still interpreted: from the file's plan.
        const before = compiles();
        const tiered = loadTieredValidator(root, path, sha256(code), { type: "object" });
        const make = schema === NINE ? nineValue : separatorsValue;
        const walked = snapshotJson(make(), 1_000_000, tiered.canonical);
        expect(walked).toMatchObject({ ok: true, valid: true });
        expect(walked.ok && walked.text).toBe(canonicalJson(make()));
        expect(tiered.validate(make())).toEqual({ ok: true });
        expect(compiles()).toBe(before);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("is left out when its JSON would not give the plan back exactly (a -0 bound: JSON writes 0)", () => {
    // The build hands the assembler schemas as JSON has them, so no -0 reaches it that way; the guard is for any that would.
    const plan = canonicalPlan({
      type: "object",
      additionalProperties: false,
      properties: { a: { type: "number", minimum: -0 } },
    })!;
    const ajv = { code: "const validate0 = () => true;", validateName: "validate0" };
    expect(assembleValidator("", ajv, plan).split("\n")[1]!.startsWith(PLAN_LINE)).toBe(false);
    const zero = canonicalPlan({
      type: "object",
      additionalProperties: false,
      properties: { a: { type: "number", minimum: 0 } },
    })!;
    expect(assembleValidator("", ajv, zero).split("\n")[1]).toBe(`${PLAN_LINE}${planText(zero)}`);
  });

  it("when missing or unreadable, leaves the runtime to work the plan out from the locked schema", async () => {
    const root = mkdtempSync(join(tmpdir(), "cave-plan-line-"));
    try {
      const [, path, code] = (await built(root, [NINE]))[0]!;
      const lines = code.split("\n");
      for (const changed of [
        [lines[0], ...lines.slice(2)].join("\n"),
        [lines[0], `${PLAN_LINE}{"kind":`, ...lines.slice(2)].join("\n"),
      ]) {
        writeFileSync(join(root, path), changed);
        let before = compiles();
        const interpreted = loadTieredValidator(root, path, sha256(changed), NINE);
        expect(snapshotJson(nineValue(), 1_000_000, interpreted.canonical)).toMatchObject({ ok: true, valid: true });
        expect(compiles()).toBe(before);
        // With no plan from either, the file is compiled at once, as for a schema without a plan.
        before = compiles();
        const compiled = loadTieredValidator(root, path, sha256(changed), { type: "object" });
        expect(compiles()).toBe(before + 1);
        expect(compiled.validate(nineValue())).toEqual({ ok: true });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
