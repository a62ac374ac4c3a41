// The canonical walk also validates (compiler/validators/canonical-checks.ts): a value it calls valid must be one
// Ajv, with the options every validator is compiled with, accepts. Differential, against in-process Ajv, over
// generated values around every bound the walk checks: lengths counted in code points (astral characters),
// patterns under the "u" flag, integers and fractions, exclusive bounds, multipleOf, enum and const misses, unions,
// missing required keys, extra keys, item counts, and keywords it leaves to Ajv (format, uniqueItems).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inProcessAjv } from "../../compiler/validators/ajv-options.js";
import { compileValidators } from "../../compiler/validators/index.js";
import { AJV_PART_LINE, loadValidator } from "../../runtime/loading/validator-module.js";
import { sha256 } from "../../src/contract/hash.js";
import type { CanonicalSerializer } from "../../runtime/pipeline/json-data.js";
import { NINE, nineValue, WALKS } from "../support/canonical.js";

const ASTRAL = "\u{1F600}";

/** Every keyword the walk decides, with bounds the generators below straddle. */
const BOUNDS = {
  type: "object",
  additionalProperties: false,
  required: ["name", "count"],
  minProperties: 2,
  maxProperties: 9,
  properties: {
    name: { type: "string", minLength: 2, maxLength: 4 },
    letters: { type: "string", pattern: "^\\p{L}{1,3}$" },
    dot: { type: "string", pattern: "^.$" },
    code: { type: "string", maxLength: 8, pattern: "^[A-Z]{3}-[0-9]{4}$" },
    count: { type: "integer", minimum: 1, maximum: 10 },
    ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    even: { type: "integer", multipleOf: 2 },
    cents: { type: "number", multipleOf: 0.01 },
    level: { enum: ["low", "high", 3, null, true] },
    fixed: { const: "x" },
    nullable: { type: ["string", "null"], maxLength: 1 },
    either: {
      anyOf: [
        { type: "string", minLength: 3 },
        { type: "number", maximum: 0 },
      ],
    },
    one: { oneOf: [{ type: "integer" }, { type: "number", minimum: 5 }] },
    tags: {
      type: "array",
      minItems: 1,
      maxItems: 3,
      items: { type: "string", maxLength: 2 },
    },
    grid: {
      type: "array",
      maxItems: 2,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["x"],
        properties: { x: { type: "number", minimum: -1 }, label: { type: "string", minLength: 1 } },
      },
    },
  },
};

/** Keywords the walk does not decide: a value that reaches them goes to Ajv; one that does not is decided here. */
const UNDECIDED = {
  type: "object",
  additionalProperties: false,
  required: ["id"],
  properties: {
    id: { type: "string" },
    email: { type: "string", format: "email" },
    set: { type: "array", uniqueItems: true, items: { type: "number" } },
    fraction: { type: "number", multipleOf: 0.5 },
    mixed: {
      oneOf: [
        { type: "string", format: "date" },
        { type: "string", maxLength: 3 },
      ],
    },
    closed: { type: "object", additionalProperties: false, required: ["missing"], properties: {} },
  },
};

const strings = fc.oneof(
  fc.constantFrom(
    "",
    "a",
    "ab",
    "abc",
    "abcd",
    "abcde",
    ASTRAL,
    ASTRAL.repeat(2),
    ASTRAL.repeat(4),
    ASTRAL.repeat(5),
    `a${ASTRAL}`,
    `ab${ASTRAL}${ASTRAL}`,
    "é",
    "éé",
    "\u00e9\u0301",
    "ABC-1234",
    "ABC-12345",
    "abc-1234",
    "ÄBC-1234",
    "low",
    "high",
    "x",
    "a@b.co",
    "2024-02-30",
    "2024-02-03",
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 5 }),
);
const numbers = fc.oneof(
  fc.constantFrom(-1, -0, 0, 0.5, 1, 2, 3, 4.5, 5, 9, 10, 10.5, 11, 1000, 0.07, 0.3, 0.1 + 0.2, 1e21, 2 ** 53, -1e-7),
  fc.integer({ min: -3, max: 12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -20, max: 20 }),
);
const leaf = fc.oneof(strings, numbers, fc.boolean(), fc.constant(null));
const item = fc.record({ x: leaf, label: leaf, extra: leaf }, { requiredKeys: [] });
const valueArb = (keys: readonly string[]) =>
  fc.oneof(
    fc.dictionary(
      fc.constantFrom(...keys),
      fc.oneof(leaf, fc.array(leaf, { maxLength: 4 }), fc.array(item, { maxLength: 3 }), item),
      { maxKeys: keys.length },
    ),
    leaf,
  );

/** Values of BOUNDS's keys, each near its bounds (about half of each within them), or any leaf at all. */
const near = <T>(typed: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: leaf });
const boundsFields = fc.record({
  name: near(fc.constantFrom("a", "ab", "abcd", "abcde", ASTRAL, ASTRAL.repeat(4), ASTRAL.repeat(5), `a${ASTRAL}`)),
  letters: near(fc.constantFrom("a", "\u00e9\u00e9", "abc", "abcd", ASTRAL, "a1", "\u{10400}")),
  dot: near(fc.constantFrom("a", ASTRAL, "ab", "", "\u00e9\u0301")),
  code: near(fc.constantFrom("ABC-1234", "ABC-123", "abc-1234", "ABC-12345")),
  count: near(fc.constantFrom(0, 1, 5, 10, 11, 1.5, -0)),
  ratio: near(fc.constantFrom(0, 1, 0.5, 1e-9, 0.999)),
  even: near(fc.constantFrom(0, 2, 3, 4.5, 1e21, -4)),
  cents: near(fc.constantFrom(0.07, 0.3, 0.1 + 0.2, 1, 0.001)),
  level: near(fc.constantFrom("low", "high", 3, null, true, "3", false, "medium")),
  fixed: near(fc.constantFrom("x", "y", "X")),
  nullable: near(fc.constantFrom(null, "", "a", "ab", ASTRAL)),
  either: near(fc.constantFrom("abc", "ab", ASTRAL.repeat(3), -1, 0, 1)),
  one: near(fc.constantFrom(3, 5, 5.5, 4.5, 6)),
  tags: near(fc.array(fc.constantFrom("a", "ab", "abc", ASTRAL.repeat(2), ASTRAL.repeat(3)), { maxLength: 4 })),
  grid: near(
    fc.array(
      fc.record(
        { x: fc.constantFrom(-2, -1, 0, 3.5), label: fc.constantFrom("", "a"), extra: fc.constant(1) },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
  ),
  extra: leaf,
});
/** name and count (required) mostly there, and a few of the other keys (so that a fair share is valid). */
const boundsValue = fc
  .tuple(
    boundsFields,
    fc.subarray(Object.keys(BOUNDS.properties).concat("extra"), { maxLength: 4 }),
    fc.constantFrom(["name", "count"], ["name", "count"], ["name", "count"], ["name"], ["count"]),
  )
  .map(([fields, some, required]) => {
    const value: Record<string, unknown> = {};
    for (const key of [...required, ...some]) value[key] = fields[key as keyof typeof fields];
    return value;
  });

/** The walk's verdict and Ajv's on the copy (what the pipeline validates). */
function verdicts(serializer: CanonicalSerializer, validate: (value: unknown) => boolean, value: unknown) {
  const walked = serializer(value, 1_000_000);
  if (walked === undefined) return { walked: "refused" as const, ajv: undefined };
  return { walked: walked.valid === true ? ("valid" as const) : ("unsure" as const), ajv: validate(walked.value) };
}

describe.each(WALKS)("the canonical walk validates only what Ajv accepts ($walk walk)", ({ walk, serializerOf }) => {
  // What only the emitted walk has (its validator module) is defined for it alone.
  const itEmitted = walk === "emitted" ? it : (((_: string) => undefined) as unknown as typeof it);
  it("decides every keyword it checks as Ajv does, around each bound (property-based)", async () => {
    const serializer = await serializerOf(BOUNDS);
    const validate = inProcessAjv().compile(BOUNDS);
    const keys = [...Object.keys(BOUNDS.properties), "extra"];
    const tally = { valid: 0, ajvValid: 0, undecidedValid: 0 };
    fc.assert(
      fc.property(
        fc.oneof({ weight: 4, arbitrary: boundsValue }, { weight: 1, arbitrary: valueArb(keys) }),
        (value) => {
          const { walked, ajv } = verdicts(serializer, validate, value);
          if (walked === "refused") return;
          if (ajv) tally.ajvValid++;
          if (walked === "valid") {
            expect(ajv, JSON.stringify(value)).toBe(true);
            tally.valid++;
          } else if (ajv) {
            // Left to Ajv although valid: only a multipleOf with a fractional divisor is not decided here.
            expect(Object.hasOwn(value as object, "cents"), JSON.stringify(value)).toBe(true);
            tally.undecidedValid++;
          }
        },
      ),
      { numRuns: 20_000 },
    );
    // The walk decides values, not only refusals.
    expect(tally.valid).toBeGreaterThan(100);
  });

  it("decides each bound exactly on hand-picked values", async () => {
    const serializer = await serializerOf(BOUNDS);
    const validate = inProcessAjv().compile(BOUNDS);
    const base = { name: "ab", count: 1 };
    const cases: unknown[] = [
      base,
      { ...base, name: ASTRAL.repeat(4) },
      { ...base, name: ASTRAL.repeat(5) },
      { ...base, name: `a${ASTRAL}` },
      { ...base, name: "a" },
      { ...base, name: ASTRAL },
      { ...base, letters: "\u00e9\u00e9" },
      { ...base, letters: "abcd" },
      { ...base, dot: ASTRAL },
      { ...base, dot: "ab" },
      { ...base, code: "ABC-1234" },
      { ...base, code: "ABC-123" },
      { ...base, count: 10 },
      { ...base, count: 11 },
      { ...base, count: 0 },
      { ...base, count: 1.5 },
      { ...base, count: -0 },
      { ...base, ratio: 0 },
      { ...base, ratio: 1 },
      { ...base, ratio: 0.5 },
      { ...base, even: 4 },
      { ...base, even: 3 },
      { ...base, even: 1e21 },
      { ...base, cents: 0.07 },
      { ...base, level: 3 },
      { ...base, level: "3" },
      { ...base, level: null },
      { ...base, level: false },
      { ...base, fixed: "x" },
      { ...base, fixed: "y" },
      { ...base, nullable: null },
      { ...base, nullable: "ab" },
      { ...base, either: "abc" },
      { ...base, either: "ab" },
      { ...base, either: -1 },
      { ...base, either: 1 },
      { ...base, one: 3 },
      { ...base, one: 5 },
      { ...base, one: 5.5 },
      { ...base, one: 4.5 },
      { ...base, tags: [] },
      { ...base, tags: ["a", "b", "c"] },
      { ...base, tags: ["a", "b", "c", "d"] },
      { ...base, tags: [ASTRAL.repeat(2)] },
      { ...base, tags: [ASTRAL.repeat(3)] },
      { ...base, grid: [{ x: -1 }, { x: 0, label: "a" }] },
      { ...base, grid: [{ x: -2 }] },
      { ...base, grid: [{ label: "a" }] },
      { ...base, grid: [{ x: 0, label: "" }] },
      { ...base, grid: [{ x: 0 }, { x: 0 }, { x: 0 }] },
      { name: "ab" },
      { count: 1 },
      { ...base, extra: 1 },
      { ...base, price: Number.NaN },
    ];
    for (const value of cases) {
      const { walked, ajv } = verdicts(serializer, validate, value);
      if (walked === "valid") expect(ajv, JSON.stringify(value)).toBe(true);
      // Every case here but the decimal multipleOf is decided exactly: valid for the walk exactly when for Ajv.
      if (walked !== "refused" && !Object.hasOwn(value as object, "cents"))
        expect(walked === "valid", JSON.stringify(value)).toBe(ajv);
    }
  });

  it("leaves to Ajv every value that reaches a keyword it does not decide, and decides the others", async () => {
    const serializer = await serializerOf(UNDECIDED);
    const validate = inProcessAjv().compile(UNDECIDED);
    fc.assert(
      fc.property(valueArb([...Object.keys(UNDECIDED.properties), "id"]), (value) => {
        const { walked, ajv } = verdicts(serializer, validate, value);
        if (walked === "valid") {
          expect(ajv).toBe(true);
          expect(Object.keys(value as object)).toEqual(["id"]);
        }
      }),
      { numRuns: 5_000 },
    );
    expect(verdicts(serializer, validate, { id: "a" }).walked).toBe("valid");
    expect(verdicts(serializer, validate, { id: "a", email: "a@b.co" })).toEqual({ walked: "unsure", ajv: true });
    expect(verdicts(serializer, validate, { id: "a", set: [1, 2] })).toEqual({ walked: "unsure", ajv: true });
    expect(verdicts(serializer, validate, { id: "a", fraction: 1.5 })).toEqual({ walked: "unsure", ajv: true });
    expect(verdicts(serializer, validate, { id: "a", mixed: "abc" })).toEqual({ walked: "unsure", ajv: true });
    expect(verdicts(serializer, validate, { id: "a", closed: {} })).toEqual({ walked: "unsure", ajv: false });
  });

  it("takes the common valid values of the benchmark's schema, and no value Ajv refuses", async () => {
    const serializer = await serializerOf(NINE);
    const validate = inProcessAjv().compile(NINE);
    expect(verdicts(serializer, validate, nineValue())).toEqual({ walked: "valid", ajv: true });
    expect(verdicts(serializer, validate, { ...nineValue(), note: `${ASTRAL.repeat(500)}` }).walked).toBe("valid");
    for (const broken of [
      { ...nineValue(), note: `${ASTRAL.repeat(501)}` },
      { ...nineValue(), priority: "urgent" },
      { ...nineValue(), quantity: 0 },
      { ...nineValue(), quantity: 2.5 },
      { ...nineValue(), code: "ABC1234" },
      { ...nineValue(), name: "" },
      { ...nineValue(), items: [{ id: "a" }] },
      { ...nineValue(), address: { street: "x" } },
      { ...nineValue(), items: Array.from({ length: 51 }, () => ({ id: "a", weight: 1 })) },
    ])
      expect(verdicts(serializer, validate, broken), JSON.stringify(broken).slice(0, 80)).toEqual({
        walked: "unsure",
        ajv: false,
      });
  });

  itEmitted("lets a loaded validator answer from the walk and Ajv give the issues, as before", async () => {
    const root = mkdtempSync(join(tmpdir(), "cave-canonical-validates-"));
    try {
      const result = await compileValidators(root, ".cave", [{ jsonSchema: NINE, owner: 'tool "t" input' }]);
      expect(result.diagnostics).toEqual([]);
      const [module] = [...result.validators.values()];
      mkdirSync(join(root, module!.path, ".."), { recursive: true });
      writeFileSync(join(root, module!.path), module!.code);
      const loaded = await loadValidator(root, module!.path, module!.sha256);
      expect(loaded.validate(nineValue())).toEqual({ ok: true });
      expect(loaded.validate({ ...nineValue(), quantity: 0 })).toEqual({
        ok: false,
        issues: [{ path: "/quantity", message: "must be >= 1" }],
      });
      expect(loaded.validate({ ...nineValue(), extra: 1 })).toEqual({
        ok: false,
        issues: [{ path: "/extra", message: "is not an allowed property (the object is closed)" }],
      });
      // Ajv's part is compiled only when a value needs it: counted here by a statement put at its start (the
      // module's own hash is then the one handed to the loader).
      const counted = module!.code.replace(
        `\n${AJV_PART_LINE}\n`,
        `\n${AJV_PART_LINE}\nglobalThis.ajvPartCompiled = (globalThis.ajvPartCompiled ?? 0) + 1;\n`,
      );
      expect(counted).not.toBe(module!.code);
      writeFileSync(join(root, module!.path), counted);
      const lazy = await loadValidator(root, module!.path, sha256(counted));
      const compiled = () => (globalThis as { ajvPartCompiled?: number }).ajvPartCompiled ?? 0;
      const before = compiled();
      expect(lazy.validate(nineValue())).toEqual({ ok: true });
      expect(compiled()).toBe(before);
      expect(lazy.validate({ ...nineValue(), quantity: 0 }).ok).toBe(false);
      expect(lazy.validate({ ...nineValue(), quantity: 1e6 }).ok).toBe(false);
      expect(compiled()).toBe(before + 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
