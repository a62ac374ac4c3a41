// The build-time canonical serializers (compiler/validators/canonical.ts) against the general walk
// (runtime/pipeline/json-data.ts snapshotJson without one): for every value, the same decision, and when the
// value is accepted the same canonical bytes, hash, size and detached copy (keys in the same order).
// The serializer may give a value up (the general walk then decides); it must never decide differently.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalSerializerSource } from "../../compiler/validators/canonical.js";
import { compileValidators } from "../../compiler/validators/index.js";
import { canonicalPlan } from "../../runtime/canonical/plan.js";
import { loadValidator } from "../../runtime/loading/validator-module.js";
import { snapshotJson, type CanonicalSerializer } from "../../runtime/pipeline/json-data.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { NINE, nineValue, WALKS } from "../support/canonical.js";

/** Keys out of code-unit order, odd keys, nullable and mixed leaves, arrays of arrays. */
const ODD = {
  type: "object",
  additionalProperties: false,
  properties: {
    "1a": { type: "number" },
    "02": { type: "string" },
    b: { type: ["string", "null"] },
    a: { enum: [1, "one", true, null] },
    é: { type: "boolean" },
    "\u{1F600}": { type: "integer" },
    'a"b\\c': { type: "null" },
    constructor: { type: "object", additionalProperties: false, properties: { x: { type: "number" } } },
    grid: { type: "array", items: { type: "array", items: { type: "number" } } },
    empty: { type: "object", additionalProperties: false, properties: {} },
  },
};

const LEAF_ROOT = { type: "string" };
const ARRAY_ROOT = { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } };

/** The copy with its key order made visible (toEqual ignores key order). */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value === "object" && value !== null) return Object.entries(value).map(([k, v]) => [k, ordered(v)]);
  return value;
}

/** Runs both paths on `make()` (a fresh value each time: getters may count their reads) and compares them. */
function same(serializer: CanonicalSerializer, make: () => unknown, maxBytes = 1_000_000): "fast" | "general" {
  const general = snapshotJson(make(), maxBytes);
  const fast = serializer(make(), maxBytes);
  const shaped = snapshotJson(make(), maxBytes, serializer);
  expect(shaped.ok).toBe(general.ok);
  if (!general.ok || !shaped.ok) {
    expect(shaped).toEqual(general);
    return fast === undefined ? "general" : "fast";
  }
  expect(shaped.text).toBe(general.text);
  expect(shaped.sha256).toBe(general.sha256);
  expect(shaped.bytes).toBe(general.bytes);
  expect(ordered(shaped.value)).toEqual(ordered(general.value));
  expect(shaped.text).toBe(canonicalJson(general.value));
  return fast === undefined ? "general" : "fast";
}

/** A value of NINE's shape whose keys are all in code-unit order already. */
const inOrder = () => ({
  address: { city: "x", street: "y" },
  code: "ABC-1234",
  items: [{ id: "a", weight: 1 }],
  name: "n",
  price: 1,
  priority: "low",
  quantity: 1,
  urgent: true,
});

describe.each(WALKS)(
  "build-time canonical serializers agree with the general walk ($walk walk)",
  ({ walk, serializerOf }) => {
    // What only the emitted walk has (its validator module) is defined for it alone.
    const itEmitted = walk === "emitted" ? it : (((_: string) => undefined) as unknown as typeof it);
    it("takes a value of the schema's shape in one pass: same bytes, hash and copy (the caller's key order kept)", async () => {
      const nine = await serializerOf(NINE);
      expect(same(nine, nineValue)).toBe("fast");
      const copy = snapshotJson(nineValue(), 1_000_000, nine);
      expect(copy.ok && Object.keys(copy.value as object)).toEqual(Object.keys(nineValue()));
      expect(copy.ok && Object.keys((copy.value as { items: object[] }).items[0]!)).toEqual(["weight", "id"]);
      // Keys already in code-unit order, and an order only nested objects break.
      expect(same(nine, inOrder)).toBe("fast");
      expect(
        same(nine, () => ({
          ...inOrder(),
          items: [
            { id: "a", weight: 1 },
            { weight: 2, id: "b" },
          ],
        })),
      ).toBe("fast");
      expect(same(nine, () => ({ ...nineValue(), note: 'a "quoted"\n note \u2028 é \u{1F600}' }))).toBe("fast");
      expect(same(nine, () => Object.assign(Object.create(null), nineValue()))).toBe("fast");
      // Symbol keys are metadata (docs/decisions.md): left out of the copy and the text by both walks alike.
      const tagged = () => {
        const value = nineValue() as Record<string | symbol, unknown>;
        value[Symbol("root")] = () => "meta";
        (value.items as Array<Record<symbol, unknown>>)[0]![Symbol.for("brand")] = 1;
        return value;
      };
      expect(same(nine, tagged)).toBe("fast");
      const taggedCopy = snapshotJson(tagged(), 1_000_000, nine);
      expect(taggedCopy.ok && Object.getOwnPropertySymbols(taggedCopy.value as object)).toEqual([]);
      expect(taggedCopy.ok && taggedCopy.text).toBe(canonicalJson(nineValue()));
      const odd = await serializerOf(ODD);
      expect(
        same(odd, () => ({
          b: null,
          a: "one",
          "1a": 1e21,
          "02": "two",
          é: true,
          "\u{1F600}": -5,
          'a"b\\c': null,
          constructor: { x: 1 },
          grid: [[1, 2], [], [0.1]],
          empty: {},
        })),
      ).toBe("fast");
      expect(same(await serializerOf(LEAF_ROOT), () => "just a string")).toBe("fast");
      expect(same(await serializerOf(ARRAY_ROOT), () => ["a", 1, 2.5e-7, "b"])).toBe("fast");
    });

    it("shares no object between the copy and the twin its text is written from, in either key order", async () => {
      const nine = await serializerOf(NINE);
      for (const make of [nineValue, inOrder]) {
        const snapshot = snapshotJson(make(), 1_000_000, nine);
        if (!snapshot.ok) throw new Error("refused");
        const copy = snapshot.value as ReturnType<typeof inOrder>;
        copy.items[0]!.weight = 7;
        copy.items.push({ id: "z", weight: 0 });
        copy.address.city = "changed";
        copy.name = "changed";
        expect(snapshot.text).toBe(canonicalJson(make()));
      }
    });

    it("gives up on everything the general walk refuses, which then decides with its own message", async () => {
      const nine = await serializerOf(NINE);
      const cases: Array<[string, () => unknown]> = [
        ["undefined field", () => ({ ...nineValue(), note: undefined })],
        ["extra key", () => ({ ...nineValue(), extra: 1 })],
        ["NaN", () => ({ ...nineValue(), price: Number.NaN })],
        ["Infinity in an item", () => ({ ...nineValue(), items: [{ id: "a", weight: Infinity }] })],
        ["lone surrogate", () => ({ ...nineValue(), name: "\ud800" })],
        ["a Date", () => ({ ...nineValue(), address: new Date(0) })],
        [
          "a class instance",
          () => ({
            ...nineValue(),
            address: new (class Address {
              street = "x";
              city = "y";
            })(),
          }),
        ],
        ["BigInt", () => ({ ...nineValue(), quantity: 1n })],
        ["function", () => ({ ...nineValue(), name: () => "x" })],
        ["array hole", () => ({ ...nineValue(), items: [, { id: "b", weight: 1 }] })],
        ["array subclass", () => ({ ...nineValue(), items: new (class Items extends Array {})() })],
        [
          "cycle",
          () => {
            const v = nineValue() as Record<string, unknown>;
            (v.address as Record<string, unknown>).city = v;
            return v;
          },
        ],
        [
          "getter that throws",
          () => ({
            ...nineValue(),
            get name(): string {
              throw new Error("no");
            },
          }),
        ],
        [
          "proxy whose traps throw",
          () =>
            new Proxy(nineValue(), {
              ownKeys() {
                throw new Error("trap");
              },
            }),
        ],
        ["__proto__ key", () => JSON.parse('{"__proto__": {"x": 1}}')],
        ["not an object", () => [nineValue()]],
      ];
      for (const [what, make] of cases) {
        expect(same(nine, make), what).toBe("general");
        // JSON data of another shape is data all the same (its validator refuses it); everything else is not data.
        expect(snapshotJson(make(), 1_000_000, nine).ok, what).toBe(what === "extra key" || what === "not an object");
      }
    });

    it("refuses a value over the byte cap exactly as the general walk does, without serialising all of it", async () => {
      const nine = await serializerOf(NINE);
      const big = () => ({ ...nineValue(), note: "x".repeat(5_000) });
      expect(same(nine, big, 1_000)).toBe("general");
      expect(snapshotJson(big(), 1_000, nine)).toMatchObject({ ok: false, problem: { kind: "too-large" } });
      // Multi-byte text under the length bound and over the byte cap: the exact check on the canonical bytes decides.
      const wide = () => ({ ...nineValue(), note: "é".repeat(200) });
      const exact = snapshotJson(wide(), 1_000_000).ok
        ? (snapshotJson(wide(), 1_000_000) as { bytes: number }).bytes
        : 0;
      expect(same(nine, wide, exact - 1)).toBe("fast");
      expect(snapshotJson(wide(), exact - 1, nine)).toMatchObject({ ok: false, problem: { kind: "too-large" } });
    });

    it("reads each property once, and a getter that starts another snapshot gets a correct one", async () => {
      const nine = await serializerOf(NINE);
      let reads = 0;
      const counted = () => ({
        ...nineValue(),
        get name() {
          reads++;
          return `read ${reads}`;
        },
      });
      reads = 0;
      const snapshot = snapshotJson(counted(), 1_000_000, nine);
      expect(reads).toBe(1);
      expect(snapshot.ok && (snapshot.value as { name: string }).name).toBe("read 1");
      expect(snapshot.ok && snapshot.text).toContain('"name":"read 1"');
      const inner: unknown[] = [];
      const reentrant = () => ({
        ...nineValue(),
        get name() {
          inner.push(snapshotJson(nineValue(), 1_000_000, nine));
          return "outer";
        },
      });
      same(nine, reentrant);
      for (const result of inner) expect(result).toEqual(snapshotJson(nineValue(), 1_000_000));
    });

    it("agrees with the general walk on arbitrary values and on values near the schema's shape (property-based)", async () => {
      const nine = await serializerOf(NINE);
      const odd = await serializerOf(ODD);
      const leaf = fc.oneof(
        fc.string(),
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.string({ unit: "binary" }),
      );
      const item = fc.record({ id: leaf, weight: leaf }, { requiredKeys: [] });
      const nearNine = fc.record(
        {
          name: leaf,
          code: leaf,
          quantity: leaf,
          price: leaf,
          urgent: leaf,
          note: leaf,
          priority: leaf,
          address: fc.oneof(fc.record({ street: leaf, city: leaf }, { requiredKeys: [] }), leaf),
          items: fc.oneof(fc.array(item, { maxLength: 5 }), leaf),
        },
        { requiredKeys: [] },
      );
      let fast = 0;
      fc.assert(
        fc.property(fc.oneof(nearNine, fc.jsonValue(), fc.anything()), (value) => {
          if (same(nine, () => value) === "fast") fast++;
          same(odd, () => value);
        }),
        { numRuns: 2_000 },
      );
      // The property exercised the serializer, not only its refusals.
      expect(fast).toBeGreaterThan(20);
    });

    itEmitted("emits no serializer, and has no plan, where the shape is not fixed at build time", () => {
      for (const schema of [
        { type: "object" },
        { type: "object", additionalProperties: true, properties: { a: { type: "string" } } },
        {},
        { type: "object", additionalProperties: false, properties: { a: {} } },
        { anyOf: [{ type: "object", additionalProperties: false, properties: {} }, { type: "string" }] },
        { $ref: "#/definitions/x", definitions: { x: { type: "string" } } },
        JSON.parse('{"type":"object","additionalProperties":false,"properties":{"__proto__":{"type":"string"}}}'),
        { type: "array", items: [{ type: "string" }] },
        {
          type: "object",
          additionalProperties: false,
          properties: { "10": { type: "number" }, "2": { type: "string" } },
        },
      ])
        expect([canonicalSerializerSource(schema), canonicalPlan(schema)], JSON.stringify(schema)).toEqual([
          undefined,
          undefined,
        ]);
    });

    itEmitted("is emitted into the schema's validator module, which the runtime loads with it", async () => {
      const root = mkdtempSync(join(tmpdir(), "cave-canonical-"));
      try {
        const result = await compileValidators(root, ".cave", [
          { jsonSchema: NINE, owner: 'tool "t" input' },
          { jsonSchema: { type: "object" }, owner: 'tool "open" input' },
        ]);
        expect(result.diagnostics).toEqual([]);
        const [closed, open] = [...result.validators.values()].sort(
          (a, b) =>
            (a.code.includes("canonicalSerializer") ? -1 : 1) - (b.code.includes("canonicalSerializer") ? -1 : 1),
        );
        for (const module of [closed!, open!]) {
          mkdirSync(join(root, module.path, ".."), { recursive: true });
          writeFileSync(join(root, module.path), module.code);
        }
        const loaded = await loadValidator(root, closed!.path, closed!.sha256);
        expect(loaded.validate(nineValue())).toEqual({ ok: true });
        expect(loaded.canonical).toBeTypeOf("function");
        expect(same(loaded.canonical!, nineValue)).toBe("fast");
        expect((await loadValidator(root, open!.path, open!.sha256)).canonical).toBeUndefined();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  },
);
