import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRecoveryStore, createRuntime, MemoryReceiptSink, useRecoveryStore, type RecoveryStore } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("result-deadline");
});
afterAll(removeCopies);

/** A store whose puts take `delayMs` (a remote store on a slow day): cave's own work after the tool finished. */
function slowStore(delayMs: number): RecoveryStore & { puts: number } {
  const inner = createMemoryRecoveryStore();
  const store = {
    puts: 0,
    async put(sha256: string, bytes: Uint8Array) {
      store.puts++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.put(sha256, bytes);
    },
    get: (sha256: string) => inner.get(sha256),
    key: () => inner.key(),
  };
  return store;
}

describe("the result stage runs after the deadline", () => {
  it("a write that finished is ok, not TIMEOUT with effectUnknown, when its result plan takes longer than its timeout", async () => {
    const store = slowStore(400);
    useRecoveryStore(root, store);
    const sink = new MemoryReceiptSink();
    const runtime = await createRuntime({ root, mode: "host", receipts: sink });
    const started = performance.now();
    const outcome = await runtime.call("record_order", { lines: 200 });
    // The plan really ran past the tool's 100 ms timeout: the store was written, after 400 ms.
    expect(store.puts).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(outcome.ok).toBe(true);
    expect(outcome.receipt).toMatchObject({ outcome: "ok", effectUnknown: false });
    expect(outcome.receipt.resultSha256).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(outcome.ok === true && typeof outcome.content).toBe("string");
    expect(sink.receipts).toEqual([outcome.receipt]);
  });

  it("the caller's signal aborted during the result stage does not cancel a finished call", async () => {
    useRecoveryStore(root, slowStore(200));
    const runtime = await createRuntime({ root, mode: "host" });
    const controller = new AbortController();
    const pending = runtime.call("record_order", { lines: 200 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user left")), 50);
    const outcome = await pending;
    expect(outcome.ok).toBe(true);
    expect(outcome.receipt).toMatchObject({ outcome: "ok", effectUnknown: false });
  });
});
