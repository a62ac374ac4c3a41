import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRuntime, MemoryReceiptSink } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject, freshProbe, probe } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(removeCopies);
beforeEach(() => {
  freshProbe();
});

interface NestedResult {
  readonly ok: boolean;
  readonly code?: string;
  readonly message?: string;
  readonly content?: unknown;
  readonly parentId: string | null;
}

async function setup() {
  const sink = new MemoryReceiptSink();
  const runtime = await createRuntime({ root, mode: "host", receipts: sink });
  return { runtime, sink };
}

describe("nested calls", () => {
  it("reach declared tools through the pipeline, with receipts carrying the parent's id", async () => {
    const { runtime, sink } = await setup();
    const outcome = await runtime.call("composite", {
      calls: [
        { name: "lookup", args: { region: "EU" } },
        { name: "echo", args: { x: 1 } },
      ],
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const results = outcome.content as NestedResult[];
    expect(results).toEqual([
      { ok: true, content: { region: "EU", days: 14 }, parentId: outcome.receipt.callId },
      { ok: true, content: { x: 1 }, parentId: outcome.receipt.callId },
    ]);
    // Nested receipts first (they finish first), then the composite's own.
    expect(sink.receipts.map((r) => [r.tool, r.parentId])).toEqual([
      ["lookup", outcome.receipt.callId],
      ["echo", outcome.receipt.callId],
      ["composite", null],
    ]);
  });

  it("refuses a tool the composite did not declare, with a receipt, without running it", async () => {
    const { runtime, sink } = await setup();
    const outcome = await runtime.call("composite", { calls: [{ name: "write_tool", args: { id: "1" } }] });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const [nested] = outcome.content as NestedResult[];
    expect(nested).toMatchObject({ ok: false, code: "NESTED_NOT_DECLARED", parentId: outcome.receipt.callId });
    expect(nested!.message).toContain('may not call "write_tool"');
    expect(nested!.message).toContain("nestedTools");
    expect(probe().calls.write_tool).toBeUndefined();
    expect(sink.receipts[0]).toMatchObject({
      tool: "write_tool",
      outcome: "NESTED_NOT_DECLARED",
      parentId: outcome.receipt.callId,
    });
  });

  it("validates nested input with the child's schema", async () => {
    const { runtime } = await setup();
    const outcome = await runtime.call("composite", { calls: [{ name: "lookup", args: { region: 3 } }] });
    const [nested] = (outcome.ok ? outcome.content : []) as NestedResult[];
    expect(nested).toMatchObject({ ok: false, code: "INPUT_INVALID" });
    expect(probe().calls.lookup).toBeUndefined();
  });

  it("share the run's budget with their parent; a nested call refused for it ends the parent too", async () => {
    const { runtime, sink } = await setup();
    const run = runtime.startRun({ budget: { maxCalls: 2 } });
    const outcome = await run.call("composite", {
      calls: [
        { name: "echo", args: { a: 1 } },
        { name: "echo", args: { a: 2 } },
      ],
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: "BUDGET_EXCEEDED" } });
    if (outcome.ok) return;
    expect(outcome.error.message).toContain(
      `its nested call of "echo" was refused because run ${run.id} has used its budget`,
    );
    expect(sink.receipts.map((r) => [r.tool, r.outcome])).toEqual([
      ["echo", "ok"],
      ["echo", "BUDGET_EXCEEDED"],
      ["composite", "BUDGET_EXCEEDED"],
    ]);
    expect(probe().calls.echo).toBe(1);
  });

  it("a nested call refused for the budget before the parent first waits stops the parent all the same (the call decided synchronously until then)", async () => {
    const { runtime, sink } = await setup();
    const run = runtime.startRun({ budget: { maxCalls: 1 } });
    const outcome = await run.call("composite", { calls: [{ name: "echo", args: { a: 1 } }] });
    expect(outcome).toMatchObject({ ok: false, error: { code: "BUDGET_EXCEEDED" } });
    if (outcome.ok) return;
    expect(outcome.error.message).toContain(
      `its nested call of "echo" was refused because run ${run.id} has used its budget`,
    );
    expect(sink.receipts.map((r) => [r.tool, r.outcome])).toEqual([
      ["echo", "BUDGET_EXCEEDED"],
      ["composite", "BUDGET_EXCEEDED"],
    ]);
    expect(probe().calls.echo).toBeUndefined();
  });

  it("count every attempt against the budget, refused ones included (issue 13: 20,000 receipts under maxCalls 10)", async () => {
    const { runtime, sink } = await setup();
    const run = runtime.startRun({ budget: { maxCalls: 10 } });
    // write_tool is not among composite's nestedTools: every attempt is refused at resolve.
    const calls = Array.from({ length: 20_000 }, () => ({ name: "write_tool", args: { id: "1" } }));
    const outcome = await run.call("composite", { calls });
    expect(outcome).toMatchObject({ ok: false, error: { code: "BUDGET_EXCEEDED" } });
    expect(run.usage().calls).toBe(10);
    // The composite, 9 refused nested attempts, then the one refused for the budget, which ended the composite.
    const counted = sink.receipts.slice(0, 11);
    expect(counted.filter((r) => r.outcome === "NESTED_NOT_DECLARED")).toHaveLength(9);
    expect(counted[9]).toMatchObject({ tool: "write_tool", outcome: "BUDGET_EXCEEDED" });
    expect(sink.receipts.find((r) => r.tool === "composite")).toMatchObject({
      outcome: "BUDGET_EXCEEDED",
      callId: outcome.receipt.callId,
    });
    // This composite runs in-process and ignores its aborted signal, so its loop goes on; each further
    // attempt is refused at once by the budget, before anything else looks at it.
    expect(sink.receipts.slice(11).every((r) => r.outcome === "BUDGET_EXCEEDED")).toBe(true);
    expect(probe().calls.write_tool).toBeUndefined();
  });

  it("share the run's repeat guard with top-level calls", async () => {
    const { runtime } = await setup();
    const run = runtime.startRun();
    const first = await run.call("echo", { k: 1, j: 2 });
    expect(first.ok).toBe(true);
    const outcome = await run.call("composite", { calls: [{ name: "echo", args: { j: 2, k: 1 } }] });
    const [nested] = (outcome.ok ? outcome.content : []) as NestedResult[];
    expect(nested).toMatchObject({ ok: false, code: "REPEAT_STOPPED" });
    expect(nested!.message).toContain(first.receipt.callId);
    expect(probe().calls.echo).toBe(1);
  });

  it("time out on their own deadline, and the parent gets the outcome", async () => {
    const { runtime } = await setup();
    const outcome = await runtime.call("composite", { calls: [{ name: "hang", args: {} }] });
    const [nested] = (outcome.ok ? outcome.content : []) as NestedResult[];
    expect(nested).toMatchObject({ ok: false, code: "TIMEOUT" });
    expect(probe().aborted.hang).toBe(true);
  });

  it("are refused after the parent's call has finished", async () => {
    const { runtime, sink } = await setup();
    const outcome = await runtime.call("late_nested", {});
    expect(outcome.ok).toBe(true);
    for (let i = 0; i < 50 && probe().late.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const [late] = probe().late as Array<{ ok: boolean; error?: { code: string } }>;
    expect(late).toMatchObject({ ok: false, error: { code: "PARENT_SETTLED" } });
    expect(probe().calls.lookup).toBeUndefined();
    expect(sink.receipts.at(-1)).toMatchObject({
      tool: "lookup",
      outcome: "PARENT_SETTLED",
      parentId: outcome.receipt.callId,
    });
  });
});
