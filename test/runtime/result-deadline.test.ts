import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMemoryRecoveryStore,
  createRuntime,
  MemoryReceiptSink,
  useRecoveryStore,
  type RecoveryStore,
  type Runtime,
} from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("result-deadline");
});
afterAll(removeCopies);

/** A store whose puts take `delayMs` (a remote store on a slow day): cave's own work after the tool finished. */
function slowStore(delayMs: number, onPut: () => void = () => {}): RecoveryStore & { puts: number } {
  const inner = createMemoryRecoveryStore();
  const store = {
    puts: 0,
    async put(sha256: string, bytes: Uint8Array) {
      store.puts++;
      onPut();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.put(sha256, bytes);
    },
    get: (sha256: string) => inner.get(sha256),
    key: () => inner.key(),
  };
  return store;
}

/**
 * A first call whose result fits inline (nothing stored): the tool's bundle and validators are loaded, so
 * what runs under the deadline afterwards is only execute and output validation, even on a loaded machine.
 */
async function warm(runtime: Runtime): Promise<void> {
  const first = await runtime.call("record_order", { lines: 1 });
  expect(first.ok).toBe(true);
}

describe("the result stage runs after the deadline", () => {
  it("a write that finished is ok, not TIMEOUT with effectUnknown, when its result plan takes longer than its timeout", async () => {
    const store = slowStore(800);
    useRecoveryStore(root, store);
    const sink = new MemoryReceiptSink();
    const runtime = await createRuntime({ root, mode: "host", receipts: sink });
    await warm(runtime);
    sink.receipts.length = 0;
    const started = performance.now();
    const outcome = await runtime.call("record_order", { lines: 200 });
    expect(outcome.ok ? "ok" : outcome.error).toBe("ok");
    // The plan really ran past the tool's 300 ms timeout: the store was written, after 800 ms.
    expect(store.puts).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    expect(outcome.ok).toBe(true);
    expect(outcome.receipt).toMatchObject({ outcome: "ok", effectUnknown: false });
    expect(outcome.receipt.resultSha256).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(outcome.ok === true && typeof outcome.content).toBe("string");
    expect(sink.receipts).toEqual([outcome.receipt]);
  });

  it("the caller's signal aborted during the result stage does not cancel a finished call", async () => {
    const controller = new AbortController();
    // Aborted while the result stage stores the result: the tool has finished by then, whatever the machine's load.
    const store = slowStore(400, () => controller.abort(new Error("user left")));
    useRecoveryStore(root, store);
    const runtime = await createRuntime({ root, mode: "host" });
    await warm(runtime);
    const outcome = await runtime.call("record_order", { lines: 200 }, { signal: controller.signal });
    expect(controller.signal.aborted).toBe(true);
    expect(store.puts).toBe(1);
    expect(outcome.ok).toBe(true);
    expect(outcome.receipt).toMatchObject({ outcome: "ok", effectUnknown: false });
  });
});
