import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planResult } from "../../compiler/results/planner.js";
import { ResultPlans, type ResultOutcome } from "../../runtime/results/engine.js";
import { createMemoryRecoveryStore, RECOVERY_RETENTION } from "../../runtime/results/store.js";

/**
 * Issue 13 item 10: a cursor or reference names a stored result for one tool's result, shown in one run of one
 * build of the tools; it must not work in another run, under another lock, for another tool, or forever.
 */
const root = mkdtempSync(join(tmpdir(), "cave-binding-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LOCK_A = `sha256-${"a".repeat(64)}`;
const LOCK_B = `sha256-${"b".repeat(64)}`;
const planOf = (policy: "page" | "exact_ccr") => {
  const planned = planResult("tool", { policy }, null, ".cave");
  if (!planned.ok) throw new Error("no plan");
  return planned.plan;
};
const big = Array.from({ length: 600 }, (_, i) => ({ i, text: `row ${i} of a large result with some words` }));

function argumentOf(outcome: ResultOutcome, tool: "cave_page" | "cave_recover"): Record<string, unknown> {
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  const match = new RegExp(`${tool} (\\{[^}]*\\})`).exec(outcome.content as string);
  if (!match) throw new Error(`no ${tool} call`);
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

describe("cursors and references are bound to the lock, the tool and the run, and expire", () => {
  it("a reference works in the run and lock it was issued in, and nowhere else", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const issued = await plans.apply(planOf("exact_ccr"), big, undefined, {
      lockIntegrity: LOCK_A,
      tool: "search",
      run: "run-1",
    });
    const { ref } = argumentOf(issued, "cave_recover");
    expect(String(ref)).toMatch(/^rf2\.search\./);
    expect(await plans.reserved("cave_recover", { ref }, { lockIntegrity: LOCK_A, run: "run-1" })).toMatchObject({
      ok: true,
    });
    for (const scope of [
      { lockIntegrity: LOCK_A, run: "run-2" },
      { lockIntegrity: LOCK_B, run: "run-1" },
    ]) {
      const refused = await plans.reserved("cave_recover", { ref }, scope);
      expect(refused).toMatchObject({ ok: false, code: "RECOVERY_REF_INVALID" });
      expect((refused as { message: string }).message).toMatch(/another run or from before a rebuild/);
    }
    // The tool is part of what is signed: renaming it in the text breaks the MAC.
    const swapped = String(ref).replace("rf2.search.", "rf2.delete.");
    expect(
      await plans.reserved("cave_recover", { ref: swapped }, { lockIntegrity: LOCK_A, run: "run-1" }),
    ).toMatchObject({ ok: false, code: "RECOVERY_REF_INVALID" });
  });

  it("a cursor is refused in another run, and the next cursor keeps the first one's binding", async () => {
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore() });
    const issued = await plans.apply(planOf("page"), big, undefined, {
      lockIntegrity: LOCK_A,
      tool: "search",
      run: "run-1",
    });
    const { cursor } = argumentOf(issued, "cave_page");
    expect(await plans.reserved("cave_page", { cursor }, { lockIntegrity: LOCK_A, run: "run-2" })).toMatchObject({
      ok: false,
      code: "PAGE_CURSOR_INVALID",
    });
    const second = await plans.reserved("cave_page", { cursor }, { lockIntegrity: LOCK_A, run: "run-1" });
    const next = argumentOf(second, "cave_page").cursor;
    expect(await plans.reserved("cave_page", { cursor: next }, { lockIntegrity: LOCK_B, run: "run-1" })).toMatchObject({
      ok: false,
      code: "PAGE_CURSOR_INVALID",
    });
    expect(await plans.reserved("cave_page", { cursor: next }, { lockIntegrity: LOCK_A, run: "run-1" })).toMatchObject({
      ok: true,
    });
  });

  it("expires with the store's retention, never before it", async () => {
    let now = Date.UTC(2026, 0, 1);
    const store = { ...createMemoryRecoveryStore(), retentionMs: 3_600_000 };
    const plans = new ResultPlans({ root, store, now: () => now });
    const binding = { lockIntegrity: LOCK_A, tool: "search", run: "run-1" };
    const { ref } = argumentOf(await plans.apply(planOf("exact_ccr"), big, undefined, binding), "cave_recover");
    const { cursor } = argumentOf(await plans.apply(planOf("page"), big, undefined, binding), "cave_page");
    now += 3_600_000;
    expect(await plans.reserved("cave_recover", { ref }, binding)).toMatchObject({ ok: true });
    expect(await plans.reserved("cave_page", { cursor }, binding)).toMatchObject({ ok: true });
    now += 1_001;
    const expired = await plans.reserved("cave_recover", { ref }, binding);
    expect(expired).toMatchObject({ ok: false, code: "RECOVERY_REF_INVALID" });
    expect((expired as { message: string }).message).toMatch(/expired/);
    expect(await plans.reserved("cave_page", { cursor }, binding)).toMatchObject({
      ok: false,
      code: "PAGE_CURSOR_INVALID",
    });
  });

  it("a store that does not state its retention gets the default one (7 days)", async () => {
    let now = Date.UTC(2026, 0, 1);
    const plans = new ResultPlans({ root, store: createMemoryRecoveryStore(), now: () => now });
    const binding = { lockIntegrity: LOCK_A, tool: "search", run: "run-1" };
    const { ref } = argumentOf(await plans.apply(planOf("exact_ccr"), big, undefined, binding), "cave_recover");
    now += RECOVERY_RETENTION.maxAgeMs;
    expect(await plans.reserved("cave_recover", { ref }, binding)).toMatchObject({ ok: true });
    now += 1_001;
    expect(await plans.reserved("cave_recover", { ref }, binding)).toMatchObject({
      ok: false,
      code: "RECOVERY_REF_INVALID",
    });
  });
});
