import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { schema } from "../../src/index.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { compileValidators, inProcessAjv } from "../../compiler/validators/index.js";
import { compileValidatorBody, issuesFromAjvErrors, loadValidator } from "../../runtime/loading/validator-module.js";
// The same seed gives the same generated set on every run.
import { rng } from "../results/generate.js";

/**
 * Differential test: for realistic schemas built with schema.*, the precompiled, bundled validator must agree with
 * Ajv compiling the same schema in-process with the same options, on validity and on the exact errors, for a
 * generated set of valid and invalid values around every boundary.
 */

const root = mkdtempSync(join(tmpdir(), "cave-differential-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

const ORDER_ID = "^ord_[a-z0-9]{6,12}$";
const PHONE = "^\\+[0-9]{7,15}$";
const COUNTRY = "^[A-Z]{2}$";
const POSTCODE = "^[0-9A-Z -]{3,10}$";

const SCHEMAS: Record<string, unknown> = {
  lookup_order: schema.object({
    orderId: schema.string({ pattern: ORDER_ID }),
    email: schema.string({ format: "email" }),
    includeHistory: schema.optional(schema.boolean()),
  }),
  create_refund: schema.object({
    orderId: schema.string({ pattern: ORDER_ID }),
    amount: schema.number({ exclusiveMinimum: 0, maximum: 10000, multipleOf: 0.01 }),
    currency: schema.union([schema.literal("EUR"), schema.literal("USD"), schema.literal("GBP")]),
    reason: schema.optional(schema.string({ maxLength: 12 })),
    lines: schema.array(
      schema.object({
        sku: schema.string({ minLength: 1, maxLength: 8 }),
        qty: schema.integer({ minimum: 1, maximum: 99 }),
      }),
      { minItems: 1, maxItems: 3 },
    ),
  }),
  search_tickets: schema.object({
    query: schema.string({ minLength: 2, maxLength: 10 }),
    status: schema.optional(
      schema.union([schema.literal("open"), schema.literal("closed"), schema.literal("pending")]),
    ),
    tags: schema.optional(schema.array(schema.string({ minLength: 1 }), { uniqueItems: true, maxItems: 3 })),
    createdAfter: schema.optional(schema.string({ format: "date-time" })),
    page: schema.optional(schema.integer({ minimum: 1 })),
  }),
  customer: schema.object({
    id: schema.string({ format: "uuid" }),
    name: schema.string({ minLength: 1, maxLength: 5 }),
    phone: schema.union([schema.string({ pattern: PHONE }), schema.null()]),
    address: schema.object({
      city: schema.string({ minLength: 1 }),
      postcode: schema.string({ pattern: POSTCODE }),
      country: schema.string({ pattern: COUNTRY }),
    }),
    website: schema.optional(schema.string({ format: "uri" })),
    since: schema.optional(schema.string({ format: "date" })),
    tier: schema.union([schema.literal("free"), schema.literal("pro")]),
    metadata: schema.object({}, { additionalProperties: true, maxProperties: 2 }),
  }),
  measurements: schema.object({
    ratio: schema.number({ minimum: 0, maximum: 1 }),
    score: schema.integer({ exclusiveMinimum: -3, exclusiveMaximum: 3 }),
    step: schema.number({ multipleOf: 0.5 }),
    dozen: schema.integer({ multipleOf: 12 }),
  }),
  nickname: schema.object({
    nickname: schema.string({ minLength: 2, maxLength: 3 }),
    ip: schema.optional(schema.string({ format: "ipv4" })),
  }),
  loose: schema.object({
    payload: schema.any(),
    flag: schema.boolean(),
    nothing: schema.null(),
    answer: schema.union([schema.literal(42), schema.literal(true), schema.literal("42")]),
  }),
  matrix: schema.array(schema.array(schema.integer({ minimum: 0 }), { minItems: 1, maxItems: 2 }), {
    maxItems: 2,
    uniqueItems: true,
  }),
  open_bag: schema.object(
    { kind: schema.literal("bag") },
    { additionalProperties: true, minProperties: 2, maxProperties: 3 },
  ),
  event: schema.union([
    schema.object({ type: schema.literal("created"), at: schema.string({ format: "date-time" }) }),
    schema.object({
      type: schema.literal("deleted"),
      by: schema.string({ format: "email" }),
      hard: schema.optional(schema.boolean()),
    }),
  ]),
};

/** Strings known to match (first) or fail (second) each pattern or format the schemas above use. */
const SAMPLES: Record<string, [string[], string[]]> = {
  [ORDER_ID]: [
    ["ord_abc123", "ord_0123456789ab"],
    ["ord_abc12", "ord_ABC123", "order_abc123", "ord_abc123\n", "ord_0123456789abc"],
  ],
  [PHONE]: [
    ["+4915112345", "+123456789012345"],
    ["4915112345", "+12345", "+1234567890123456", "+49 151"],
  ],
  [COUNTRY]: [
    ["DE", "GB"],
    ["de", "DEU", "D"],
  ],
  [POSTCODE]: [
    ["10115", "SW1A 1AA"],
    ["ab", "12", "12345678901", "É1234"],
  ],
  email: [
    ["ada@example.com", "first.last+tag@sub.example.org"],
    ["ada", "ada@", "@example.com", "ada@example..com", "ädä@example.com"],
  ],
  "date-time": [
    ["2026-03-01T10:00:00Z", "2026-03-01T10:00:00.5+05:30", "2024-02-29T23:59:59z"],
    ["2026-03-01", "2026-02-30T10:00:00Z", "2026-03-01T10:00:00", "2026-03-01 10:00:00Z"],
  ],
  date: [
    ["2026-03-01", "2024-02-29"],
    ["2025-02-29", "2026-3-1", "2026-03-01T00:00:00Z"],
  ],
  uri: [
    ["https://example.com/a?b=c", "mailto:ada@example.com"],
    ["example.com/a", "//example.com", "http://exa mple.com", ""],
  ],
  uuid: [
    ["123e4567-e89b-12d3-a456-426614174000", "urn:uuid:123e4567-e89b-12d3-a456-426614174000"],
    ["123e4567-e89b-12d3-a456-42661417400", "123e4567e89b12d3a456426614174000", "g23e4567-e89b-12d3-a456-426614174000"],
  ],
  ipv4: [
    ["127.0.0.1", "255.255.255.255"],
    ["256.0.0.1", "1.2.3", "01.2.3.4x"],
  ],
};

type S = Record<string, unknown>;
const CAP = 40;

/** One value meant to be valid, built from the schema's own constraints. */
function validValue(s: S, random: () => number): unknown {
  if ("const" in s) return s.const;
  if (Array.isArray(s.anyOf)) return validValue(s.anyOf[Math.floor(random() * s.anyOf.length)] as S, random);
  switch (s.type) {
    case "string": {
      const known = SAMPLES[(s.pattern ?? s.format) as string];
      if (known) return known[0][Math.floor(random() * known[0].length)];
      const min = (s.minLength as number | undefined) ?? 0;
      return "x".repeat(Math.max(min, 1));
    }
    case "integer": {
      const min =
        (s.exclusiveMinimum as number | undefined) !== undefined
          ? (s.exclusiveMinimum as number) + 1
          : ((s.minimum as number | undefined) ?? 0);
      return (s.multipleOf as number | undefined) ?? min;
    }
    case "number":
      return (
        (s.multipleOf as number | undefined) ??
        (s.minimum as number | undefined) ??
        ((s.exclusiveMinimum as number | undefined) ?? 0) + 1
      );
    case "boolean":
      return random() < 0.5;
    case "null":
      return null;
    case "array": {
      const count = Math.max((s.minItems as number | undefined) ?? 0, 1);
      return Array.from({ length: count }, (_, i) =>
        s.uniqueItems ? distinct(validValue(s.items as S, random), i) : validValue(s.items as S, random),
      );
    }
    case "object": {
      const out: S = {};
      const properties = (s.properties ?? {}) as Record<string, S>;
      const required = (s.required ?? []) as string[];
      for (const [key, sub] of Object.entries(properties))
        if (required.includes(key) || random() < 0.5) out[key] = validValue(sub, random);
      if (s.additionalProperties === true)
        while (Object.keys(out).length < ((s.minProperties as number | undefined) ?? 0))
          out[`extra${Object.keys(out).length}`] = 1;
      return out;
    }
    default:
      return { any: ["thing", 1, null] };
  }
}

function distinct(value: unknown, i: number): unknown {
  if (typeof value === "string") return `${value}${"abcdefgh"[i] ?? i}`;
  if (typeof value === "number") return value + i;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "number" ? v + i : v));
  return value;
}

const OTHER_TYPES: unknown[] = [null, true, 0, -1.5, "", "text", [], {}];

/** Values around every boundary of the schema: valid ones, near misses and wrong types. */
function candidates(s: S, random: () => number, depth = 0): unknown[] {
  const out: unknown[] = [validValue(s, random), validValue(s, random)];
  if ("const" in s) {
    const c = s.const;
    out.push(
      c,
      typeof c === "string" ? c.toUpperCase() : String(c),
      typeof c === "number" ? c + 1 : c === true ? false : `${String(c)} `,
      typeof c === "string" && /^\d+$/.test(c) ? Number(c) : null,
    );
  } else if (Array.isArray(s.anyOf)) {
    for (const member of s.anyOf)
      out.push(...candidates(member as S, random, depth + 1).slice(0, depth === 0 ? 30 : 10));
  } else if (s.type === "string") {
    const known = SAMPLES[(s.pattern ?? s.format) as string];
    if (known) out.push(...known[0], ...known[1]);
    for (const n of [s.minLength, s.maxLength].filter((x): x is number => typeof x === "number")) {
      for (const len of [n - 1, n, n + 1].filter((l) => l >= 0)) {
        out.push(
          "a".repeat(len),
          "\u{1F600}".repeat(len),
          "é".repeat(len),
          `${"a".repeat(Math.max(len - 1, 0))}\u{1F600}`.slice(0, len + 1),
        );
      }
    }
    out.push("", " ", "\u0000", 12, ["a"]);
  } else if (s.type === "number" || s.type === "integer") {
    const points = [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum].filter(
      (x): x is number => typeof x === "number",
    );
    for (const p of points) out.push(p - 1, p - 0.01, p, p + 0.01, p + 1);
    if (typeof s.multipleOf === "number")
      out.push(s.multipleOf * 3, s.multipleOf * 7, s.multipleOf * 3 + s.multipleOf / 2, -s.multipleOf, 0.1 + 0.2, 1e21);
    out.push(0, -0, 1.0, 1.5, 2 ** 53, -(2 ** 53) - 2, 1e308, 5e-324, "1", true, null);
  } else if (s.type === "boolean") {
    out.push(true, false, "true", 1, 0, null);
  } else if (s.type === "null") {
    out.push(null, 0, "", "null", false, []);
  } else if (s.type === "array") {
    const items = s.items as S;
    const itemValues = candidates(items, random, depth + 1).slice(0, depth === 0 ? 20 : 8);
    const good = validValue(items, random);
    for (const n of [s.minItems, s.maxItems].filter((x): x is number => typeof x === "number")) {
      for (const len of [n - 1, n, n + 1].filter((l) => l >= 0))
        out.push(Array.from({ length: len }, (_, i) => distinct(good, i)));
    }
    out.push(
      [],
      [good, good],
      ...itemValues.map((v) => [v]),
      ...itemValues.slice(0, 4).map((v) => [good, v]),
      { 0: good, length: 1 },
      "[]",
    );
  } else if (s.type === "object") {
    const base = validValue(s, random) as S;
    const properties = (s.properties ?? {}) as Record<string, S>;
    const required = (s.required ?? []) as string[];
    for (const [key, sub] of Object.entries(properties)) {
      for (const v of candidates(sub, random, depth + 1).slice(0, depth === 0 ? 14 : 5))
        out.push({ ...base, [key]: v });
      if (required.includes(key)) {
        const { [key]: _dropped, ...rest } = base;
        out.push(rest);
      }
    }
    const full: S = { ...base };
    for (const [key, sub] of Object.entries(properties)) full[key] = validValue(sub, random);
    out.push(
      full,
      { ...full, extra: 1 },
      { ...base, extra: "x", more: null },
      { ...base, constructor: 1 },
      JSON.parse(`{"__proto__": 1, ${JSON.stringify(base).slice(1)}`.replace(/, }$/, "}")) as unknown,
      Object.assign(Object.create({ inherited: 1 }) as object, base),
    );
  } else {
    out.push("x", 1, [1, "a"], { deep: { deeper: [null] } });
  }
  out.push(...OTHER_TYPES);
  // Keep it bounded and deterministic: a seeded shuffle, then the first CAP.
  return out
    .map((v) => [random(), v] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, v]) => v)
    .slice(0, depth === 0 ? Number.POSITIVE_INFINITY : CAP);
}

describe("precompiled validators agree with in-process Ajv", () => {
  let total = 0;
  let valid = 0;

  test.each(Object.keys(SCHEMAS))("%s", async (name) => {
    const jsonSchema = json(SCHEMAS[name]);
    const result = await compileValidators(root, ".cave", [{ jsonSchema, owner: `tool "${name}" input` }]);
    expect(result.diagnostics).toEqual([]);
    const module = [...result.validators.values()][0]!;
    mkdirSync(dirname(join(root, module.path)), { recursive: true });
    writeFileSync(join(root, module.path), module.code);
    const loaded = await loadValidator(root, module.path, module.sha256);
    const raw = compileValidatorBody(module.code, module.path)!.validate as ((v: unknown) => boolean) & {
      errors?: unknown;
    };

    // The same options, and the same canonical schema (key order decides which error comes first).
    const reference = inProcessAjv().compile(JSON.parse(canonicalJson(jsonSchema)) as object);

    const values = candidates(jsonSchema, rng(name.length * 7919));
    expect(values.length).toBeGreaterThan(30);
    let here = 0;
    for (const value of values) {
      const expected = reference(value);
      const label = `${name}: ${JSON.stringify(value)}`;
      expect(raw(value), label).toBe(expected);
      expect(raw.errors ?? null, label).toEqual(reference.errors ?? null);
      const outcome = loaded.validate(value);
      expect(outcome.ok, label).toBe(expected);
      if (!outcome.ok) expect(outcome.issues, label).toEqual(issuesFromAjvErrors(reference.errors ?? []));
      if (expected) here++;
    }
    total += values.length;
    valid += here;
    // Every schema sees both sides of its boundaries.
    expect(here, `${name}: valid values`).toBeGreaterThan(0);
    expect(values.length - here, `${name}: invalid values`).toBeGreaterThan(0);
  });

  test("the generated set is large and mixed", () => {
    expect(total).toBeGreaterThanOrEqual(500);
    expect(valid).toBeGreaterThanOrEqual(100);
    expect(total - valid).toBeGreaterThanOrEqual(300);
  });
});

/**
 * The same check over every precompiled schema the example and the fixtures lock: built by the real compiler into a
 * temporary copy, each validator loaded from its build folder through the runtime's verified loader.
 */
describe("the example's and fixtures' locked validators agree with in-process Ajv", async () => {
  const { build } = await import("../../compiler/build.js");
  const { copyProject, removeCopies } = await import("../support/projects.js");
  const { readdirSync, existsSync } = await import("node:fs");
  afterAll(removeCopies);
  const projects = [
    "examples/support-desk",
    ...readdirSync(join(import.meta.dirname, "..", "..", "fixtures"))
      .filter((name) => existsSync(join(import.meta.dirname, "..", "..", "fixtures", name, "expected.lock")))
      .map((name) => `fixtures/${name}`),
  ];

  test.each(projects)("%s", async (project) => {
    const root = copyProject(project);
    const result = await build({ root });
    expect(result.ok, JSON.stringify(result.diagnostics)).toBe(true);
    const seen = new Set<string>();
    for (const [tool, locked] of Object.entries(result.lock!.tools)) {
      for (const side of [locked.input, locked.output]) {
        if (side?.validation.kind !== "precompiled" || seen.has(side.validation.module)) continue;
        seen.add(side.validation.module);
        const loaded = await loadValidator(root, side.validation.module, side.validation.sha256);
        const reference = inProcessAjv().compile(JSON.parse(canonicalJson(side.jsonSchema)) as object);
        for (const value of candidates(side.jsonSchema as S, rng(tool.length * 104729))) {
          const expected = reference(value);
          const outcome = loaded.validate(value);
          expect(outcome.ok, `${project} ${tool}: ${JSON.stringify(value)}`).toBe(expected);
          if (!outcome.ok) expect(outcome.issues).toEqual(issuesFromAjvErrors(reference.errors ?? []));
        }
      }
    }
    if (project === "examples/support-desk") expect(seen.size).toBeGreaterThan(10);
  });
});
