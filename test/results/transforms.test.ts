import { describe, expect, it } from "vitest";
import { canonicalJson, sha256 } from "../../src/contract/hash.js";
import { TRANSFORMS } from "../../src/contract/results/transforms.js";
import { loadTokenizer } from "../../src/contract/results/tokenizer.js";
import { planResult } from "../../compiler/results/planner.js";
import { REGISTRY } from "../../compiler/results/registry.js";
import { randomText, randomValue, rng } from "./generate.js";

interface StagedTransform {
  id: string;
  version: number;
  lossless: boolean;
  encode(value: unknown): string;
  decode?(text: string): unknown;
}

/** The staged module exactly as the build folder holds it, imported from its bytes. */
async function staged(id: string): Promise<StagedTransform> {
  const code = REGISTRY.find((t) => t.id === id)!.code;
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as StagedTransform;
}

const FLAT = {
  type: "object",
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    paid: { type: "boolean" },
    note: { type: ["string", "null"] },
  },
  additionalProperties: false,
};

function randomRecords(random: () => number): Array<Record<string, unknown>> {
  return Array.from({ length: Math.floor(random() * 40) }, (_, i) => {
    const record: Record<string, unknown> = { id: i };
    if (random() < 0.8) record.name = randomText(random, Math.floor(random() * 30));
    if (random() < 0.7) record.paid = random() < 0.5;
    if (random() < 0.5) record.note = random() < 0.5 ? null : "ünïcödé 😀";
    if (random() < 0.1) record['key with "quotes"'] = 1.5e-7;
    return record;
  });
}

describe("transforms", () => {
  it("every registered transform exports what the registry says", async () => {
    for (const info of TRANSFORMS) {
      const module = await staged(info.id);
      expect({ id: module.id, version: module.version, lossless: module.lossless }).toEqual({
        id: info.id,
        version: info.version,
        lossless: info.lossless,
      });
      expect(typeof module.encode).toBe("function");
      if (info.lossless) expect(typeof module.decode).toBe("function");
    }
  });

  it("table@1 is lossless: decoding gives back every record, a missing key stays missing and null stays null", async () => {
    const table = await staged("table");
    const random = rng(3);
    for (let n = 0; n < 200; n++) {
      const records = randomRecords(random);
      const decoded = table.decode!(table.encode(records));
      expect(canonicalJson(decoded)).toBe(canonicalJson(records));
    }
    const text = table.encode([{ a: 1, b: null }, { a: 2 }]);
    expect(JSON.parse(text)).toEqual({
      columns: ["a", "b"],
      rows: [
        [1, null],
        [2, null],
      ],
      absent: [[1, 1]],
    });
    expect(table.decode!(text)).toEqual([{ a: 1, b: null }, { a: 2 }]);
  });

  it("table@1 saves tokens on records: keys once, then rows", async () => {
    const table = await staged("table");
    const tokenizer = await loadTokenizer();
    const orders = Array.from({ length: 200 }, (_, i) => ({
      orderId: i,
      customerName: `Customer ${i}`,
      totalAmount: i * 3.5,
      currency: "EUR",
    }));
    expect(tokenizer.count(table.encode(orders))).toBeLessThan(tokenizer.count(JSON.stringify(orders)) * 0.75);
  });

  it("table@1 refuses a value that is not an array of objects, naming the item", async () => {
    const table = await staged("table");
    expect(() => table.encode({ a: 1 })).toThrow("table@1 encodes an array of objects; got object");
    expect(() => table.encode([{ a: 1 }, 5])).toThrow("item 1 is not an object");
  });

  it("compact-json@1 is lossless over generated values", async () => {
    const compact = await staged("compact-json");
    const random = rng(11);
    for (let n = 0; n < 300; n++) {
      const value = randomValue(random);
      expect(canonicalJson(compact.decode!(compact.encode(value)))).toBe(canonicalJson(value));
    }
    expect(compact.encode({ a: [1, 2], b: "x" })).toBe('{"a":[1,2],"b":"x"}');
  });

  it("elide@1 keeps head and tail and says what it elided; small values pass unchanged", async () => {
    const elide = await staged("elide");
    expect(elide.lossless).toBe(false);
    expect(JSON.parse(elide.encode({ a: "short", b: [1, 2, 3] }))).toEqual({ a: "short", b: [1, 2, 3] });
    const log = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
    const text = JSON.parse(elide.encode(log)) as string;
    expect(text.startsWith("line 0\nline 1\n")).toBe(true);
    expect(text.endsWith("line 4999")).toBe(true);
    expect(text).toMatch(new RegExp(`…\\[elided ${log.length - 1600} of ${log.length} characters\\]…`));
    const items = JSON.parse(elide.encode(Array.from({ length: 100 }, (_, i) => i))) as unknown[];
    expect(items).toHaveLength(26);
    expect(items[20]).toBe("…[elided 75 of 100 items: 20 to 94]…");
    expect(items.at(-1)).toBe(99);
  });

  it("elide@1 never cuts a surrogate pair", async () => {
    const elide = await staged("elide");
    for (const shift of [0, 1]) {
      const text = JSON.parse(elide.encode("x".repeat(shift) + "😀".repeat(3000))) as string;
      expect(Buffer.from(text, "utf8").toString("utf8")).toBe(text);
      expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });

  it("the staged module's bytes are what the lock pins", () => {
    const planned = planResult("export_orders", { policy: "compress" }, { type: "array", items: FLAT }, ".cave");
    expect(planned.ok).toBe(true);
    const transform = planned.ok ? planned.plan.transform! : null;
    expect(transform).toMatchObject({
      id: "table",
      version: 1,
      lossless: true,
      module: ".cave/transforms/table@1.mjs",
    });
    expect(transform!.sha256).toBe(sha256(REGISTRY.find((t) => t.id === "table")!.code));
  });
});

describe("transform eligibility", () => {
  const plan = (requested: Parameters<typeof planResult>[1], schema: Record<string, unknown> | null) =>
    planResult("t", requested, schema, ".cave");
  const artifactNoRecovery = {
    policy: "artifact",
    artifact: { strategy: "compress", maxInlineTokens: 1200, recovery: "none" },
  } as const;

  it("prefers the lossless table for flat records, compact JSON for other structures, elide for text", () => {
    const pick = (schema: Record<string, unknown> | null) => {
      const planned = plan({ policy: "compress" }, schema);
      return planned.ok ? `${planned.plan.transform!.id}:${planned.plan.recovery}` : "refused";
    };
    expect(pick({ type: "array", items: FLAT })).toBe("table:none");
    expect(
      pick({
        type: "array",
        items: {
          type: "object",
          properties: { tags: { type: "array", items: { type: "string" } } },
          additionalProperties: false,
        },
      }),
    ).toBe("compact-json:none");
    expect(pick({ type: "object", properties: {} })).toBe("compact-json:none");
    expect(pick({ type: "string" })).toBe("elide:exact_ccr");
    expect(pick(null)).toBe("elide:exact_ccr");
  });

  it("refuses table for open or nested records and says why", () => {
    const open = plan(artifactNoRecovery, {
      type: "array",
      items: { type: "object", properties: { a: { type: "string" } } },
    });
    const nested = plan(artifactNoRecovery, {
      type: "array",
      items: { type: "object", properties: { a: { type: "object" } }, additionalProperties: false },
    });
    // Both fall back to compact JSON, which is eligible for arrays.
    expect(open.ok && open.plan.transform!.id).toBe("compact-json");
    expect(nested.ok && nested.plan.transform!.id).toBe("compact-json");
  });

  it("refuses a lossy transform without exact recovery: CAVE7001 names every transform's reason and what to do", () => {
    const planned = plan(artifactNoRecovery, { type: "string" });
    expect(planned.ok).toBe(false);
    if (planned.ok) return;
    expect(planned.problems).toHaveLength(1);
    const [problem] = planned.problems;
    expect(problem!.code).toBe("CAVE7001");
    expect(problem!.message).toContain("table@1: the output is not an array of objects");
    expect(problem!.message).toContain("compact-json@1: the output is a bare value");
    expect(problem!.message).toContain(
      'elide@1: it is lossy and the exact original is not stored first (recovery is "none")',
    );
    expect(problem!.hint).toContain('Keep recovery "exact_ccr"');
  });

  it("refuses pages below 64 tokens with CAVE7002", () => {
    const planned = plan(
      { policy: "artifact", artifact: { strategy: "page", maxInlineTokens: 10, recovery: "exact_ccr" } },
      null,
    );
    expect(planned.ok).toBe(false);
    if (!planned.ok) {
      expect(planned.problems[0]!.code).toBe("CAVE7002");
      expect(planned.problems[0]!.hint).toContain("Raise maxInlineTokens to 64");
    }
  });
});
