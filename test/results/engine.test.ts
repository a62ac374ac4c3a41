import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256 } from "../../src/contract/hash.js";
import type { RequestedResult, ResultPlan } from "../../src/contract/lock.js";
import { serializeResult } from "../../src/contract/results/serial.js";
import { planResult } from "../../compiler/results/planner.js";
import { REGISTRY } from "../../compiler/results/registry.js";
import { ResultPlans, type ResultOutcome } from "../../runtime/results/engine.js";
import { createFileRecoveryStore, createMemoryRecoveryStore, type RecoveryStore } from "../../runtime/results/store.js";
import { randomValue, rng } from "./generate.js";

const root = mkdtempSync(join(tmpdir(), "cave-results-"));
mkdirSync(join(root, ".cave", "transforms"), { recursive: true });
for (const transform of REGISTRY)
  writeFileSync(join(root, ".cave", "transforms", `${transform.id}@${transform.version}.mjs`), transform.code);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function planFor(requested: RequestedResult, schema: Record<string, unknown> | null): ResultPlan {
  const planned = planResult("tool", requested, schema, ".cave");
  if (!planned.ok) throw new Error(planned.problems[0]!.message);
  return planned.plan;
}

const ORDERS = {
  type: "array",
  items: {
    type: "object",
    properties: { id: { type: "integer" }, customer: { type: "string" }, total: { type: "number" } },
    additionalProperties: false,
  },
};
const orders = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, customer: `Zoë Ångström ${i} 日本`, total: i * 1.5 }));

function text(outcome: ResultOutcome): string {
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  expect(typeof outcome.content).toBe("string");
  return outcome.content as string;
}

/** The JSON argument the model is told to pass to a reserved tool, read from a content header. */
function argumentOf(content: string, tool: "cave_page" | "cave_recover"): Record<string, unknown> {
  const match = new RegExp(`${tool} (\\{[^}]*\\})`).exec(content);
  if (!match) throw new Error(`no ${tool} call in ${content.slice(0, 300)}`);
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

/** What every cursor and reference of these tests is issued for (the runtime passes the call's lock, tool and run). */
const BINDING = { lockIntegrity: `sha256-${"1".repeat(64)}`, tool: "tool", run: "run-1" };
const SCOPE = { lockIntegrity: BINDING.lockIntegrity, run: BINDING.run };

const body = (content: string) => content.slice(content.indexOf("\n") + 1);

/** Reads every page of a recovered result and joins the bodies. */
async function recoverAll(plans: ResultPlans, ref: string): Promise<string> {
  const first = text(await plans.reserved("cave_recover", { ref }, SCOPE));
  const match = /page 1 of (\d+)/.exec(first.split("\n")[0]!);
  if (!match) return first;
  let out = body(first);
  for (let page = 2; page <= Number(match[1]); page++)
    out += body(text(await plans.reserved("cave_recover", { ref, page }, SCOPE)));
  return out;
}

describe("inline", () => {
  it("passes the value as is, without counting", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const value = { a: [1, "ü"] };
    const outcome = await plans.apply(planFor({ policy: "inline" }, null), value, undefined, BINDING);
    expect(outcome).toEqual({ ok: true, content: value, stored: null });
  });

  it("a plan with an inline cap passes small results as is", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const outcome = await plans.apply(planFor({ policy: "auto" }, ORDERS), orders(3), undefined, BINDING);
    expect(outcome).toEqual({ ok: true, content: orders(3), stored: null });
  });
});

describe("page", () => {
  it("gives page 1, the page count and a cursor; cave_page returns every page and they concatenate to the exact result", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const value = orders(400);
    const first = text(await plans.apply(planFor({ policy: "auto" }, ORDERS), value, undefined, BINDING));
    const header = first.split("\n")[0]!;
    const count = Number(/page 1 of (\d+)/.exec(header)![1]);
    expect(count).toBeGreaterThan(3);
    let joined = body(first);
    let cursor = argumentOf(first, "cave_page").cursor as string;
    for (let page = 2; page <= count; page++) {
      const next = text(await plans.reserved("cave_page", { cursor }, SCOPE));
      expect(next.split("\n")[0]).toContain(`page ${page} of ${count}`);
      joined += body(next);
      if (page < count) cursor = argumentOf(next, "cave_page").cursor as string;
    }
    expect(joined).toBe(serializeResult(value));
    // Any page by number, from any cursor of the result.
    const third = text(await plans.reserved("cave_page", { cursor, page: 3 }, SCOPE));
    expect(third.split("\n")[0]).toContain(`page 3 of ${count}`);
  });

  it("refuses a forged, damaged or out-of-range cursor with PAGE_CURSOR_INVALID", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const first = text(await plans.apply(planFor({ policy: "page" }, ORDERS), orders(400), undefined, BINDING));
    const cursor = argumentOf(first, "cave_page").cursor as string;
    const forgedPage = cursor.replace(/\.(\d+)\.(\d+)\.([A-Za-z0-9_-]{22})$/, ".9.$2.$3");
    for (const bad of [forgedPage, `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}`, "pg2.nonsense"]) {
      const outcome = await plans.reserved("cave_page", { cursor: bad }, SCOPE);
      expect(outcome).toMatchObject({ ok: false, code: "PAGE_CURSOR_INVALID" });
      expect((outcome as { message: string }).message).toContain("copy the cursor exactly as shown");
    }
    const beyond = await plans.reserved("cave_page", { cursor, page: 9999 }, SCOPE);
    expect(beyond).toMatchObject({ ok: false, code: "PAGE_CURSOR_INVALID" });
    expect((beyond as { message: string }).message).toMatch(/ask for a page from 1 to \d+/);
    // Another runtime's store signs with another key: its cursors are not valid here.
    const other = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    expect(await other.reserved("cave_page", { cursor }, SCOPE)).toMatchObject({
      ok: false,
      code: "PAGE_CURSOR_INVALID",
    });
  });

  it("calls a cursor stale when its result is no longer stored", async () => {
    const key = new Uint8Array(32).fill(7);
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore(key) });
    const cursor = argumentOf(
      text(await plans.apply(planFor({ policy: "page" }, ORDERS), orders(400), undefined, BINDING)),
      "cave_page",
    ).cursor;
    const fresh = new ResultPlans({ root, store: createMemoryRecoveryStore(key) });
    const outcome = await fresh.reserved("cave_page", { cursor }, SCOPE);
    expect(outcome).toMatchObject({ ok: false, code: "PAGE_CURSOR_INVALID" });
    expect((outcome as { message: string }).message).toContain("stale");
  });

  it("checks the reserved tools' input against their schema", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    expect(await plans.reserved("cave_page", { cursr: "x" }, SCOPE)).toMatchObject({
      ok: false,
      code: "INPUT_INVALID",
    });
    expect(await plans.reserved("cave_page", { cursor: "x", page: 0 }, SCOPE)).toMatchObject({
      ok: false,
      code: "INPUT_INVALID",
      message: "cave_page page must be an integer from 1",
    });
    expect(await plans.reserved("cave_recover", "ref", SCOPE)).toMatchObject({ ok: false, code: "INPUT_INVALID" });
  });
});

describe("exact_ccr and cave_recover", () => {
  it("returns exactly what the tool returned: non-ASCII, escapes, large values", async () => {
    const plans = new ResultPlans({ root, store: createFileRecoveryStore(join(root, ".cave-state", "recovery")) });
    const random = rng(5);
    const values: unknown[] = [
      {
        note: 'naïve café 😀 \u0000 \u2028 "quoted" \\ back',
        list: Array.from({ length: 800 }, (_, i) => `élément ${i} — 漢字`),
      },
      Array.from({ length: 30 }, () => randomValue(random)),
      `${"x".repeat(200_000)}🇫🇷`,
    ];
    for (const value of values) {
      const view = text(await plans.apply(planFor({ policy: "exact_ccr" }, null), value, undefined, BINDING));
      expect(view.split("\n")[0]).toContain("is stored");
      const ref = argumentOf(view, "cave_recover").ref as string;
      const recovered = await recoverAll(plans, ref);
      expect(recovered).toBe(serializeResult(value));
      expect(sha256(recovered)).toBe(sha256(serializeResult(value)));
      expect(JSON.parse(recovered)).toEqual(value);
    }
  });

  it("a small result is returned whole by cave_recover, without a header", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const value = Array.from({ length: 60 }, (_, i) => `row ${i}`);
    const view = text(await plans.apply(planFor({ policy: "exact_ccr" }, null), value, undefined, BINDING));
    const ref = argumentOf(view, "cave_recover").ref as string;
    expect(text(await plans.reserved("cave_recover", { ref }, SCOPE))).toBe(serializeResult(value));
  });

  it("refuses a forged reference with RECOVERY_REF_INVALID and a missing one with RECOVERY_NOT_FOUND", async () => {
    const key = new Uint8Array(32).fill(1);
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore(key) });
    const ref = argumentOf(
      text(await plans.apply(planFor({ policy: "exact_ccr" }, null), orders(100), undefined, BINDING)),
      "cave_recover",
    ).ref as string;
    const forged = `rf2.tool.${"0".repeat(64)}.1200.${ref.split(".")[4]}.${ref.slice(-22)}`;
    expect(await plans.reserved("cave_recover", { ref: forged }, SCOPE)).toMatchObject({
      ok: false,
      code: "RECOVERY_REF_INVALID",
    });
    const fresh = new ResultPlans({ root, store: createMemoryRecoveryStore(key) });
    expect(await fresh.reserved("cave_recover", { ref }, SCOPE)).toMatchObject({
      ok: false,
      code: "RECOVERY_NOT_FOUND",
    });
  });

  it("refuses bytes that no longer match their hash with RECOVERY_CORRUPT", async () => {
    const dir = join(root, "corrupt-store");
    const plans = new ResultPlans({ root, store: createFileRecoveryStore(dir) });
    const ref = argumentOf(
      text(await plans.apply(planFor({ policy: "exact_ccr" }, null), orders(100), undefined, BINDING)),
      "cave_recover",
    ).ref as string;
    const hex = ref.split(".")[2]!;
    writeFileSync(join(dir, hex.slice(0, 2), `${hex}.json`), "[]");
    expect(await plans.reserved("cave_recover", { ref }, SCOPE)).toMatchObject({ ok: false, code: "RECOVERY_CORRUPT" });
  });

  it("a store that cannot write leaves the model a clear error, replaces nothing and stores nothing", async () => {
    // Tests run as root, so a read-only folder would still be writable: a parent that is a regular file is not.
    const file = join(root, "not-a-folder");
    writeFileSync(file, "x");
    const plans = new ResultPlans({ root, store: createFileRecoveryStore(join(file, "recovery")) });
    for (const requested of [{ policy: "exact_ccr" }, { policy: "page" }, { policy: "compress" }] as const) {
      const schema = requested.policy === "compress" ? { type: "string" } : ORDERS;
      const value = requested.policy === "compress" ? "log line\n".repeat(5000) : orders(400);
      const outcome = await plans.apply(planFor(requested, schema), value, undefined, BINDING);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.code).toBe("RECOVERY_STORE_FAILED");
      expect(outcome.message).toContain("was not replaced");
      expect(outcome.message).toContain("fix the recovery store");
      expect(outcome.message).toContain(sha256(serializeResult(value)));
      expect(outcome.message).not.toContain("log line");
    }
  });

  it("a store that loses bytes is caught by reading them back before anything is replaced", async () => {
    const forgetful: RecoveryStore = { ...createMemoryRecoveryStore(), get: async () => null };
    const plans = new ResultPlans({ root, store: forgetful });
    const outcome = await plans.apply(planFor({ policy: "exact_ccr" }, null), orders(300), undefined, BINDING);
    expect(outcome).toMatchObject({ ok: false, code: "RECOVERY_STORE_FAILED" });
    expect((outcome as { message: string }).message).toContain("does not return what was just stored");
    const lying: RecoveryStore = { ...createMemoryRecoveryStore(), get: async () => new Uint8Array([1, 2]) };
    expect(
      await new ResultPlans({ root, store: lying }).apply(
        planFor({ policy: "exact_ccr" }, null),
        orders(300),
        undefined,
        BINDING,
      ),
    ).toMatchObject({ ok: false, code: "RECOVERY_STORE_FAILED" });
  });
});

describe("compress", () => {
  it("applies the pinned lossless transform; decoding its output gives the result back", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const value = orders(50);
    const content = text(await plans.apply(planFor({ policy: "compress" }, ORDERS), value, undefined, BINDING));
    expect(content.split("\n")[0]).toBe("[compressed by table@1 (lossless)]");
    const table = REGISTRY.find((t) => t.id === "table")!;
    const module = (await import(`data:text/javascript;base64,${Buffer.from(table.code).toString("base64")}`)) as {
      decode(text: string): unknown;
    };
    expect(module.decode(body(content))).toEqual(value);
  });

  it("stores the exact original before a lossy transform and gives its reference", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const log = Array.from(
      { length: 4000 },
      (_, i) => `2026-01-01 12:00:${String(i % 60).padStart(2, "0")} INFO request ${i} served`,
    ).join("\n");
    const content = text(await plans.apply(planFor({ policy: "auto" }, { type: "string" }), log, undefined, BINDING));
    expect(content.split("\n")[0]).toContain("compressed by elide@1 (lossy)");
    expect(content).toMatch(/…\[elided \d+ of \d+ characters\]…/);
    const ref = argumentOf(content, "cave_recover").ref as string;
    expect(JSON.parse(await recoverAll(plans, ref))).toBe(log);
  });

  it("refuses a transform module whose bytes do not match the lock, with TRANSFORM_MISMATCH", async () => {
    const tampered = join(root, "tampered");
    mkdirSync(join(tampered, ".cave", "transforms"), { recursive: true });
    const table = REGISTRY.find((t) => t.id === "table")!;
    writeFileSync(join(tampered, ".cave", "transforms", "table@1.mjs"), `${table.code}\n// changed`);
    const plans = new ResultPlans({ root: tampered, store: createMemoryRecoveryStore() });
    const outcome = await plans.apply(planFor({ policy: "compress" }, ORDERS), orders(5), undefined, BINDING);
    expect(outcome).toMatchObject({ ok: false, code: "TRANSFORM_MISMATCH" });
    expect((outcome as { message: string }).message).toContain("deploy the build folder written with this lock");
    const missing = new ResultPlans({ root: join(tampered, "nowhere"), store: createMemoryRecoveryStore() });
    expect(await missing.apply(planFor({ policy: "compress" }, ORDERS), orders(5), undefined, BINDING)).toMatchObject({
      ok: false,
      code: "TRANSFORM_MISMATCH",
    });
  });

  it("reports a transform that throws on the value with TRANSFORM_FAILED", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const outcome = await plans.apply(planFor({ policy: "compress" }, ORDERS), { not: "an array" }, undefined, BINDING);
    expect(outcome).toMatchObject({ ok: false, code: "TRANSFORM_FAILED" });
    expect((outcome as { message: string }).message).toContain("table@1 encodes an array of objects");
  });

  it("refuses a plan pinned to another tokenizer with TOKENIZER_MISMATCH", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const plan = { ...planFor({ policy: "page" }, ORDERS), tokenizer: { id: "o200k_base", version: "3.0.0" } };
    expect(await plans.apply(plan, orders(400), undefined, BINDING)).toMatchObject({
      ok: false,
      code: "TOKENIZER_MISMATCH",
    });
  });
});

describe("the file store", () => {
  it("keeps results outside the build folder, one file per hash, and a stable signing key", async () => {
    const dir = join(root, "state", "recovery");
    const store = createFileRecoveryStore(dir);
    const bytes = Buffer.from("[1,2,3]");
    await store.put(sha256(bytes), bytes);
    expect(Buffer.from((await store.get(sha256(bytes)))!).toString()).toBe("[1,2,3]");
    expect(await store.get(sha256("other"))).toBeNull();
    const key = await store.key();
    expect(await createFileRecoveryStore(dir).key()).toEqual(key);
    expect(readdirSync(dir).sort()).toEqual([sha256(bytes).slice(7, 9), "key"].sort());
  });
});
