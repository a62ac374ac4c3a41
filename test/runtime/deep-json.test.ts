// Issue 13, item 1: JSON nested ~2,000 levels deep in arguments or results. call() must resolve to a
// typed outcome with a receipt, never reject with a RangeError, and the repeat guard must only ever
// name a receipt that was written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, MemoryReceiptSink } from "../../runtime/index.js";
import { canonicalJson, JsonTooDeepError, MAX_JSON_DEPTH } from "../../src/contract/hash.js";
import type { Receipt } from "../../src/contract/outcome.js";
import { removeCopies } from "../support/projects.js";
import { builtProject, freshProbe } from "./helpers.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("pipeline");
  freshProbe();
});
afterAll(removeCopies);

function nest(depth: number, arrays: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
}

async function setup() {
  const sink = new MemoryReceiptSink();
  const runtime = await createRuntime({ root, mode: "host", receipts: sink });
  return { runtime, sink };
}

describe("arguments nested deeper than the limit", () => {
  it.each([
    ["objects", 2_000, false],
    ["arrays", 2_000, true],
    ["objects", 100_000, false],
    ["arrays", 100_000, true],
  ])(
    "%s nested %i levels deep are INPUT_TOO_DEEP with a receipt, every time, never a rejection",
    async (_what, depth, arrays) => {
      const { runtime, sink } = await setup();
      const args = nest(depth as number, arrays as boolean);
      for (let i = 0; i < 2; i++) {
        const outcome = await runtime.call("echo", args);
        expect(outcome.ok).toBe(false);
        if (outcome.ok) return;
        expect(outcome.error.code).toBe("INPUT_TOO_DEEP");
        expect(outcome.error.message).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
        expect(outcome.error.message).toContain("send flatter data");
        expect(sink.receipts.at(-1)).toEqual(outcome.receipt);
      }
      expect(sink.receipts.map((r) => r.outcome)).toEqual(["INPUT_TOO_DEEP", "INPUT_TOO_DEEP"]);
    },
  );

  it("accepts exactly the limit and refuses one level more", async () => {
    const { runtime } = await setup();
    for (const arrays of [false, true]) {
      expect(await runtime.call("echo", nest(MAX_JSON_DEPTH, arrays))).toMatchObject({
        ok: true,
        content: nest(MAX_JSON_DEPTH, arrays),
      });
      expect(await runtime.call("echo", nest(MAX_JSON_DEPTH + 1, arrays))).toMatchObject({
        ok: false,
        error: { code: "INPUT_TOO_DEEP" },
      });
    }
  });

  it("in a nested call: the nested call is refused with its receipt, the parent carries on", async () => {
    const { runtime, sink } = await setup();
    const outcome = await runtime.call("composite", { calls: [{ name: "echo", args: { x: 1 } }] });
    expect(outcome.ok).toBe(true);
    // The composite's own arguments are bounded too: a deep nested argument cannot be smuggled through them.
    const smuggled = await runtime.call("composite", { calls: [{ name: "echo", args: nest(2_000, true) }] });
    expect(smuggled).toMatchObject({ ok: false, error: { code: "INPUT_TOO_DEEP" } });
    expect(sink.receipts.at(-1)!.outcome).toBe("INPUT_TOO_DEEP");
  });
});

describe("results nested deeper than the limit", () => {
  it.each([false, true])(
    "(arrays: %s) OUTPUT_TOO_DEEP with a receipt, and the runtime keeps working",
    async (arrays) => {
      const { runtime, sink } = await setup();
      for (const depth of [2_000, 100_000]) {
        const outcome = await runtime.call("deep_output", { depth, arrays });
        expect(outcome).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_DEEP" } });
        if (outcome.ok) return;
        expect(outcome.error.message).toContain("Return flatter data");
        expect(sink.receipts.at(-1)).toEqual(outcome.receipt);
      }
      expect(await runtime.call("deep_output", { depth: MAX_JSON_DEPTH, arrays })).toMatchObject({ ok: true });
    },
  );
});

describe("the repeat guard names only receipts that were written", () => {
  it("names the earlier call's receipt, which the sink holds", async () => {
    const { runtime, sink } = await setup();
    const first = await runtime.call("echo", { same: true });
    const second = await runtime.call("echo", { same: true });
    expect(second).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    if (second.ok) return;
    expect(second.error.message).toContain(`receipt ${first.receipt.callId}`);
    expect(sink.receipts.map((r) => r.callId)).toContain(first.receipt.callId);
  });

  it("says so when the sink failed to record the earlier receipt, instead of naming it as a receipt", async () => {
    let fail = true;
    const kept: Receipt[] = [];
    const runtime = await createRuntime({
      root,
      mode: "host",
      receipts: {
        record(receipt) {
          if (fail) throw new Error("disk full");
          kept.push(receipt);
        },
      },
    });
    await expect(runtime.call("echo", { lost: true })).rejects.toThrow("disk full");
    fail = false;
    const again = await runtime.call("echo", { lost: true });
    expect(again).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    if (again.ok) return;
    expect(again.error.message).toContain("whose receipt the receipt sink failed to record");
    expect(again.error.message).not.toContain("(receipt ");
  });
});

describe("canonical JSON", () => {
  it("refuses nesting past the limit with a typed error on both of its paths, never a RangeError", () => {
    expect(() => canonicalJson(nest(100_000, true))).toThrow(JsonTooDeepError);
    expect(() => canonicalJson(nest(100_000, true))).toThrow(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    // Unsorted keys take the general path first.
    expect(() => canonicalJson({ b: 1, a: nest(100_000, false) })).toThrow(
      `nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(canonicalJson({ b: 1, a: nest(MAX_JSON_DEPTH - 1, false) })).toContain('"b":1');
  });
});
