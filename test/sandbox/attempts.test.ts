// Issue 13, items 3, 4 and 6 in the child-process sandbox: every nested attempt counts against the run's
// budget, live children are capped per runtime, and a large nested result reaches its sandboxed parent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

describe("item 4: every nested attempt counts", () => {
  it.each([false, true])(
    "(parallel: %s) 20,000 refused nested attempts under maxCalls 10 leave 11 receipts; the parent's process is killed",
    async (parallel) => {
      const { runtime, receipts, sandbox } = await sandboxed(root);
      const run = runtime.startRun({ budget: { maxCalls: 10 } });
      // echo is not among composite's nestedTools: each attempt is refused at resolve.
      const calls = Array.from({ length: 20_000 }, () => ({ name: "echo", args: { text: "x" } }));
      const outcome = await run.call("composite", { calls, parallel });
      expect(outcome).toMatchObject({ ok: false, error: { code: "BUDGET_EXCEEDED" } });
      expect(run.usage().calls).toBe(10);
      // Let anything still in flight arrive: nothing more may be recorded.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receipts.receipts.map((r) => r.outcome)).toEqual([
        ...Array(9).fill("NESTED_NOT_DECLARED"),
        "BUDGET_EXCEEDED",
        "BUDGET_EXCEEDED",
      ]);
      expect(receipts.receipts.at(-1)).toMatchObject({ tool: "composite", callId: outcome.receipt.callId });
      expect(sandbox.stats().live).toBeLessThanOrEqual(1); // at most the tool's spare
    },
  );
});

describe("item 3: live sandbox processes are capped per runtime", () => {
  async function fanOut(options: { maxChildren: number; maxQueued?: number }, n: number) {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: options });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, sandbox.stats().live, sandbox.pids().length)), 2);
    try {
      const outcome = await runtime.call("fan_out", { n });
      most = Math.max(most, sandbox.stats().live);
      return { codes: outcome.ok ? (outcome.content as string[]) : [outcome.error.code], most, sandbox };
    } finally {
      clearInterval(watch);
    }
  }

  it("8 parallel nested calls under maxChildren 3: never more than 3 processes, every call queued and answered", async () => {
    const { codes, most, sandbox } = await fanOut({ maxChildren: 3 }, 8);
    expect(codes).toEqual(Array(8).fill("ok"));
    expect(most).toBeLessThanOrEqual(3);
    expect(sandbox.stats().spawned).toBeGreaterThanOrEqual(3);
  });

  it("past maxQueued waiting calls, a nested call is refused with SANDBOX_BUSY, typed, without running", async () => {
    const { codes, most } = await fanOut({ maxChildren: 2, maxQueued: 2 }, 8);
    expect(codes).toHaveLength(8);
    expect(codes.filter((c) => c === "SANDBOX_BUSY").length).toBeGreaterThan(0);
    expect(codes.every((c) => c === "ok" || c === "SANDBOX_BUSY")).toBe(true);
    expect(most).toBeLessThanOrEqual(2);
  });

  it("defaults to 16 processes and 64 waiting calls", async () => {
    const { SANDBOX_DEFAULTS } = await import("../../runtime/sandbox/options.js");
    expect(SANDBOX_DEFAULTS.maxChildren).toBe(16);
    expect(SANDBOX_DEFAULTS.maxQueued).toBe(64);
  });
});

describe("item 6: a large nested result reaches its sandboxed parent", () => {
  it("a page of ~600 KB of JSON text, escaped again in the nested frame, does not kill the parent (no PROTOCOL_ERROR)", async () => {
    const limits = { maxInputBytes: 1_048_576, maxOutputBytes: 1_048_576 };
    const { runtime, receipts } = await sandboxed(root, { sandbox: { limits } });
    // 499,000 quotes: ~1 MB of canonical JSON (each quote escaped), within the 1 MiB cap and over 600,000
    // tokens, so paged; the first page, ~600 KB of `\"`, is ~1.2 MB once escaped again in the frame to the
    // parent's child: over the frame cap of 1 MiB + 64 KiB the child had.
    const outcome = await runtime.call("nested_size", { n: 499_000 });
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) return;
    const size = outcome.content as { ok: boolean; length: number };
    expect(size.ok).toBe(true);
    expect(size.length).toBeGreaterThan(500_000);
    expect(receipts.receipts.map((r) => [r.tool, r.outcome, r.effectUnknown])).toEqual([
      ["host_text", "ok", false],
      ["nested_size", "ok", false],
    ]);
  });
});
