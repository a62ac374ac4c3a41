// Result-plan benchmark body (issue 6); bundled and run by run.mjs. Prints markdown tables.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalJson, sha256 } from "../../src/contract/hash.js";
import type { RequestedResult, ResultPlan } from "../../src/contract/lock.js";
import { serializeResult } from "../../src/contract/results/serial.js";
import { loadTokenizer, tokenBounds } from "../../src/contract/results/tokenizer.js";
import { planResult } from "../../compiler/results/planner.js";
import { REGISTRY } from "../../compiler/results/registry.js";
import { ResultPlans } from "../../runtime/results/engine.js";
import { pageCuts } from "../../runtime/results/paginate.js";
import { createFileRecoveryStore } from "../../runtime/results/store.js";
import { writeFileSync, mkdirSync } from "node:fs";

/** What the benchmark's cursors and references are issued for (the runtime passes the call's lock, tool and run). */
const BINDING = { lockIntegrity: `sha256-${"1".repeat(64)}`, tool: "bench", run: "bench-run" };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(runs: number, fn: () => unknown): number {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    out.push(performance.now() - start);
  }
  return median(out);
}
async function timeAsync(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return median(out);
}
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));

const STATUSES = ["open", "paid", "shipped", "refunded"];
const CITIES = ["Berlin", "São Paulo", "Zürich", "東京", "Lyon", "Kraków", "Austin"];
function order(i: number) {
  return {
    id: `ord_${String(i).padStart(6, "0")}`,
    customer: `Customer ${i} ${CITIES[i % CITIES.length]}`,
    email: `customer${i}@example.com`,
    status: STATUSES[i % STATUSES.length],
    total: Math.round(((i * 37) % 10000) * 1.07) / 100,
    currency: "EUR",
    items: 1 + (i % 5),
    placedAt: `2026-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:1${i % 6}:00Z`,
  };
}
function ordersOfBytes(bytes: number) {
  const out = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const o = order(i);
    size += canonicalJson(o).length + 1;
    out.push(o);
  }
  return out;
}
function log(bytes: number): string {
  const levels = ["INFO", "INFO", "INFO", "WARN", "DEBUG", "ERROR"];
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `2026-03-0${1 + (i % 9)}T12:${String(i % 60).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}.${String(i % 1000).padStart(3, "0")}Z ${levels[i % levels.length]} [worker-${i % 8}] GET /api/v1/orders/${1000 + (i % 977)} 200 ${(i * 13) % 400}ms user=u${i % 131}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}
function searchPage() {
  return {
    query: "refund policy for damaged items",
    total: 1843,
    page: 1,
    hits: Array.from({ length: 20 }, (_, i) => ({
      title: `Refund policy ${i + 1}: damaged, lost and late deliveries (${CITIES[i % CITIES.length]})`,
      url: `https://help.example.com/articles/${48210 + i}/refund-policy-damaged-items`,
      snippet: `If an item arrives damaged, contact support within ${14 + i} days with photos of the item and its packaging. We refund the full price including shipping, or send a replacement at no cost. Partial refunds apply when only part of an order is affected.`,
      score: Math.round((0.98 - i * 0.03) * 1000) / 1000,
      updatedAt: `2026-0${1 + (i % 9)}-2${i % 8}T10:00:00Z`,
    })),
  };
}

const ORDER_SCHEMA = {
  type: "array",
  items: {
    type: "object",
    properties: Object.fromEntries(
      Object.keys(order(0)).map((k) => [
        k,
        { type: typeof (order(0) as Record<string, unknown>)[k] === "number" ? "number" : "string" },
      ]),
    ),
    additionalProperties: false,
  },
};
function planFor(requested: RequestedResult, schema: Record<string, unknown> | null): ResultPlan {
  const planned = planResult("bench", requested, schema, ".cave");
  if (!planned.ok) throw new Error(planned.problems[0]!.message);
  return planned.plan;
}

const root = mkdtempSync(join(tmpdir(), "cave-bench-results-"));
try {
  mkdirSync(join(root, ".cave", "transforms"), { recursive: true });
  for (const t of REGISTRY) writeFileSync(join(root, ".cave", "transforms", `${t.id}@${t.version}.mjs`), t.code);
  const start = performance.now();
  const tokenizer = await loadTokenizer();
  const loadMs = performance.now() - start;
  const store = createFileRecoveryStore(join(root, ".cave-state", "recovery"));
  const plans = new ResultPlans({ root, store });
  await store.key();

  console.log(`\n## Result handling overhead (median; tokenizer load once: ${fmt(loadMs)} ms)\n`);
  console.log(
    "| result | tokens | serialise | byte bound | count | page (1,200) | store + read back + verify | page plan, end to end | exact_ccr plan, end to end |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [label, bytes, runs] of [
    ["1 KB", 1024, 50],
    ["100 KB", 100 * 1024, 10],
    ["10 MB", 10 * 1024 * 1024, 2],
  ] as const) {
    const value = ordersOfBytes(bytes);
    const text = serializeResult(value);
    const serialise = time(runs, () => serializeResult(value));
    const bound = time(runs, () => tokenBounds(text));
    let tokens = 0;
    const count = time(runs, () => (tokens = tokenizer.count(text)));
    const page = time(runs, () => pageCuts(text, 1200, tokenizer));
    const buffer = Buffer.from(text);
    const storeMs = await timeAsync(runs, async () => {
      const hash = sha256(buffer);
      await store.put(hash, buffer);
      const back = await store.get(hash);
      if (sha256(back!) !== hash) throw new Error("mismatch");
    });
    const pagePlan = planFor({ policy: "page" }, ORDER_SCHEMA);
    const exactPlan = planFor({ policy: "exact_ccr" }, null);
    // A fresh engine per run, so cached page cuts do not hide the cost; the pipeline hands over the
    // canonical text it already hashed, so serialising is not part of a plan's cost.
    const pageEnd = await timeAsync(runs, () => new ResultPlans({ root, store }).apply(pagePlan, value, text, BINDING));
    const exactEnd = await timeAsync(runs, () =>
      new ResultPlans({ root, store }).apply(exactPlan, value, text, BINDING),
    );
    console.log(
      `| ${label} (${text.length} B) | ${tokens} | ${fmt(serialise)} ms | ${fmt(bound)} ms | ${fmt(count)} ms | ${fmt(page)} ms | ${fmt(storeMs)} ms | ${fmt(pageEnd)} ms | ${fmt(exactEnd)} ms |`,
    );
  }
  void plans;

  console.log("\n## Token savings on realistic payloads (o200k_base tokens of what the model sees)\n");
  console.log(
    "| payload | pretty JSON (2 spaces) | compact JSON (canonical) | transform | transform output | vs compact | vs pretty | auto plan sends |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const payloads: Array<[string, unknown, Record<string, unknown> | null]> = [
    ["500 orders", Array.from({ length: 500 }, (_, i) => order(i)), ORDER_SCHEMA],
    ["200 KB log", log(200 * 1024), { type: "string" }],
    [
      "search result page",
      searchPage(),
      { type: "object", properties: { query: { type: "string" }, hits: { type: "array" } } },
    ],
  ];
  for (const [label, value, schema] of payloads) {
    const pretty = tokenizer.count(JSON.stringify(value, null, 2));
    const compact = tokenizer.count(serializeResult(value));
    const auto = await plans.apply(planFor({ policy: "auto" }, schema), value, undefined, BINDING);
    const autoTokens = auto.ok
      ? tokenizer.count(typeof auto.content === "string" ? auto.content : serializeResult(auto.content))
      : NaN;
    const autoPlan = planFor({ policy: "auto" }, schema).strategy;
    for (const transform of REGISTRY) {
      const module = (await import(
        `data:text/javascript;base64,${Buffer.from(transform.code).toString("base64")}`
      )) as { encode(v: unknown): string };
      let out: string;
      try {
        out = module.encode(value);
      } catch {
        continue;
      }
      const tokens = tokenizer.count(out);
      const pct = (base: number) => `${(((base - tokens) / base) * 100).toFixed(1)}%`;
      console.log(
        `| ${label} | ${pretty} | ${compact} | ${transform.id}@${transform.version}${transform.lossless ? "" : " (lossy)"} | ${tokens} | ${pct(compact)} | ${pct(pretty)} | ${autoPlan}: ${autoTokens} |`,
      );
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
