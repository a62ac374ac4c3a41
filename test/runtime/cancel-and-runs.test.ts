// Call options for adapters (signal, correlationId), named runs and describeTools().
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRuntime, MemoryReceiptSink, RuntimeError, type Runtime } from "../../runtime/index.js";
import { hashJson } from "../../src/contract/hash.js";
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

async function host(): Promise<{ runtime: Runtime; sink: MemoryReceiptSink }> {
  const sink = new MemoryReceiptSink();
  const runtime = await createRuntime({ root, mode: "host", receipts: sink });
  return { runtime, sink };
}

/** Waits until tool code has been called (loading a bundle takes a while on a busy machine). */
async function calledAlready(name: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (probe().calls[name] === undefined) {
    if (Date.now() > until) throw new Error(`${name} was never called`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("cancellation through the call option signal", () => {
  it("a dispatched write cancelled mid-call: CANCELLED with the reason, effectUnknown, before its timeout", async () => {
    const { runtime, sink } = await host();
    const controller = new AbortController();
    await runtime.call("write_tool", { id: "warm" }); // loads the module, so the 300 ms timeout is all the tool's
    const pending = runtime.call("write_hang", {}, { signal: controller.signal });
    await calledAlready("write_hang");
    controller.abort(new Error("user pressed stop"));
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("CANCELLED");
    expect(outcome.error.message).toContain(
      'the call of tool "write_hang" was cancelled by the caller (user pressed stop)',
    );
    expect(outcome.error.message).toContain("effect write and may have done part of it (effectUnknown)");
    expect(outcome.receipt).toMatchObject({ outcome: "CANCELLED", effectUnknown: true, tool: "write_hang" });
    expect(sink.receipts.at(-1)).toEqual(outcome.receipt);
  });

  it("aborts the tool's own signal, and a read tool's cancellation leaves effectUnknown false", async () => {
    const { runtime } = await host();
    const controller = new AbortController();
    await runtime.call("lookup", { region: "warm" });
    const pending = runtime.call("hang", {}, { signal: controller.signal });
    await calledAlready("hang");
    controller.abort();
    const outcome = await pending;
    expect(outcome.ok === false && outcome.error.code).toBe("CANCELLED");
    expect(outcome.ok === false && outcome.error.message).toContain(
      "cancelled by the caller (This operation was aborted)",
    );
    expect(outcome.receipt.effectUnknown).toBe(false);
    expect(probe().aborted.hang).toBe(true);
  });

  it("a signal already aborted refuses the call before any tool code runs, and the repeat guard does not count it", async () => {
    const { runtime, sink } = await host();
    const run = runtime.startRun();
    const outcome = await run.call("write_tool", { id: "a" }, { signal: AbortSignal.abort("gone") });
    expect(outcome.ok === false && outcome.error).toEqual({
      code: "CANCELLED",
      message: 'the call of tool "write_tool" was cancelled by the caller before it started (gone); nothing ran',
    });
    expect(outcome.receipt.effectUnknown).toBe(false);
    expect(probe().calls.write_tool).toBeUndefined();
    const again = await run.call("write_tool", { id: "a" });
    expect(again.ok).toBe(true);
    expect(sink.receipts.map((r) => r.outcome)).toEqual(["CANCELLED", "ok"]);
  });

  it("a signal aborted after the call finished changes nothing", async () => {
    const { runtime } = await host();
    const controller = new AbortController();
    const outcome = await runtime.call("lookup", { region: "EU" }, { signal: controller.signal });
    controller.abort();
    expect(outcome.ok).toBe(true);
  });

  it("the timeout still wins when the signal is never aborted", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("hang", {}, { signal: new AbortController().signal });
    expect(outcome.ok === false && outcome.error.code).toBe("TIMEOUT");
  });

  it("nested calls in flight are cancelled with their parent; their receipts carry no correlation id", async () => {
    const { runtime, sink } = await host();
    const controller = new AbortController();
    await runtime.call("composite", { calls: [{ name: "lookup", args: { region: "warm" } }] });
    const pending = runtime.call(
      "composite",
      {
        calls: [
          { name: "lookup", args: { region: "EU" } },
          { name: "hang", args: {} },
        ],
      },
      { signal: controller.signal, correlationId: "call_7" },
    );
    await calledAlready("hang");
    controller.abort();
    const outcome = await pending;
    expect(outcome.ok === false && outcome.error.code).toBe("CANCELLED");
    expect(outcome.receipt.correlationId).toBe("call_7");
    expect(probe().aborted.hang).toBe(true);
    const nested = sink.receipts.filter((r) => r.parentId === outcome.receipt.callId);
    expect(nested.map((r) => r.tool)).toEqual(["lookup"]);
    expect(nested[0]!.correlationId).toBeNull();
    expect(nested[0]!.runId).toBe(outcome.receipt.runId);
  });
});

describe("correlation ids and named runs in receipts", () => {
  it("records the caller's correlation id and the run's id", async () => {
    const { runtime } = await host();
    const run = runtime.startRun({ id: "conversation-42" });
    expect(run.id).toBe("conversation-42");
    expect(run.runtime).toBe(runtime);
    const outcome = await run.call("lookup", { region: "EU" }, { correlationId: "toolu_01" });
    expect(outcome.receipt).toMatchObject({
      runId: "conversation-42",
      correlationId: "toolu_01",
      argsSha256: hashJson({ region: "EU" }),
    });
    const plain = await run.call("lookup", { region: "US" });
    expect(plain.receipt.correlationId).toBeNull();
  });

  it("a run without an id gets a random UUID, and the default run has one too", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    expect(run.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await run.call("lookup", { region: "EU" })).receipt.runId).toBe(run.id);
    expect((await runtime.call("lookup", { region: "EU" })).receipt.runId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a run id outside the safe alphabet, and bad call options, with OPTIONS_INVALID naming them", async () => {
    const { runtime } = await host();
    for (const id of ["", "../etc", "a b", "-lead", "x".repeat(129), 42]) {
      expect(() => runtime.startRun({ id } as never)).toThrow(RuntimeError);
      expect(() => runtime.startRun({ id } as never)).toThrow(
        /startRun\(\) id must be 1 to 128 letters, digits and _ \. : @ -/,
      );
    }
    expect(() => runtime.startRun({ name: "x" } as never)).toThrow(
      /unknown option "name" in startRun\(\) options; known keys: id, budget/,
    );
    await expect(runtime.call("lookup", {}, { signal: { aborted: false } } as never)).rejects.toThrow(
      /call option signal must be an AbortSignal/,
    );
    await expect(runtime.call("lookup", {}, { correlationId: "" })).rejects.toThrow(
      /call option correlationId must be a string of 1 to 256 characters/,
    );
    await expect(runtime.call("lookup", {}, { correlationId: 7 } as never)).rejects.toThrow(/correlationId/);
  });
});

describe("describeTools()", () => {
  it("gives each tool's locked facts and the reserved tools, in declaration order", async () => {
    const { runtime } = await host();
    const tools = runtime.describeTools();
    expect(tools.map((t) => t.name)).toEqual(runtime.toolDeclarations("mcp").map((d) => d.name));
    const lookup = tools.find((t) => t.name === "lookup")!;
    expect(lookup).toMatchObject({ effect: "read", reserved: false, allowRepeat: false });
    expect(lookup.description).toBe(runtime.toolDeclarations("mcp").find((d) => d.name === "lookup")!.description);
    expect(lookup.inputSchema).toEqual(runtime.toolDeclarations("mcp").find((d) => d.name === "lookup")!.inputSchema);
    expect(lookup.sha256).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(typeof lookup.timeoutMs).toBe("number");
    const hang = tools.find((t) => t.name === "hang")!;
    expect(hang).toMatchObject({
      timeoutMs: 300,
      allowRepeat: true,
      outputSchema: null,
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    });
    const write = tools.find((t) => t.name === "write_tool")!;
    expect(write).toMatchObject({ effect: "write", allowRepeat: false, result: expect.any(String) });
    // Fresh copies: changing one does not change the next answer.
    (lookup.inputSchema as Record<string, unknown>).type = "changed";
    expect(runtime.describeTools().find((t) => t.name === "lookup")!.inputSchema.type).toBe("object");
  });
});
