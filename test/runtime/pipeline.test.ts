import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createRuntime,
  inProcessDispatcher,
  MemoryReceiptSink,
  RUNTIME_CODES,
  type Dispatcher,
  type Runtime,
} from "../../runtime/index.js";
import { structuralHash } from "../../runtime/canonical/structural-hash.js";
import { snapshotJson } from "../../runtime/pipeline/json-data.js";
import { TIER_UP_WALKS } from "../../runtime/loading/validator-module.js";
import { NO_JSON_SHA256 } from "../../runtime/pipeline/receipt.js";
import { hashJson } from "../../src/contract/hash.js";
import { NATIVE_CONTENT, NATIVE_REFUSED, TYPED_REFUSED } from "../support/not-json-data.js";
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

async function host(extra: Record<string, unknown> = {}): Promise<{ runtime: Runtime; sink: MemoryReceiptSink }> {
  const sink = new MemoryReceiptSink();
  const runtime = await createRuntime({ root, mode: "host", receipts: sink, ...extra });
  return { runtime, sink };
}

describe("resolve", () => {
  it("runs a locked tool and returns its content with a receipt", async () => {
    const { runtime, sink } = await host();
    const outcome = await runtime.call("lookup", { region: "EU" });
    expect(outcome).toMatchObject({ ok: true, content: { region: "EU", days: 14 } });
    expect(outcome.receipt).toMatchObject({
      parentId: null,
      tool: "lookup",
      lockIntegrity: runtime.lockIntegrity,
      argsSha256: hashJson({ region: "EU" }),
      resultSha256: hashJson({ region: "EU", days: 14 }),
      outcome: "ok",
      effectUnknown: false,
    });
    expect(outcome.receipt.callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(outcome.receipt.durationMs).toBeGreaterThanOrEqual(0);
    expect(sink.receipts).toEqual([outcome.receipt]);
  });

  it("refuses an unknown tool, with a receipt", async () => {
    const { runtime, sink } = await host();
    const outcome = await runtime.call("lokup", { region: "EU" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("UNKNOWN_TOOL");
    expect(outcome.error.message).toContain('"lokup" is not a locked tool');
    expect(outcome.error.message).toContain("cave build");
    expect(outcome.receipt.outcome).toBe("UNKNOWN_TOOL");
    expect(sink.receipts).toHaveLength(1);
  });

  it("refuses arguments that are not JSON data, naming the path, before any tool code runs", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("echo", { a: [1, { f: () => 1 }] });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("INPUT_INVALID");
    expect(outcome.error.message).toContain("a function at /a/1/f");
    expect(outcome.receipt.argsSha256).toBe(NO_JSON_SHA256);
    expect(probe().calls.echo).toBeUndefined();
  });

  it("leaves Symbol-keyed properties out as metadata: the tool never sees them and the receipt hashes the data alone", async () => {
    const { runtime } = await host();
    const brand = Symbol("brand");
    // lookup walks its closed schema (interpreted, then emitted); echo has no schema and takes the general walk.
    for (const [tool, calls] of [
      ["lookup", 2 * TIER_UP_WALKS],
      ["echo", 1],
    ] as const) {
      for (let i = 0; i < calls; i++) {
        const outcome = await runtime.startRun().call(tool, { region: "EU", [brand]: () => "meta" });
        expect(outcome).toMatchObject({ ok: true, receipt: { argsSha256: hashJson({ region: "EU" }) } });
        if (!outcome.ok) return;
        if (tool === "echo") {
          expect(Reflect.ownKeys(outcome.content as object)).toEqual(["region"]);
          expect(outcome.receipt.resultSha256).toBe(hashJson({ region: "EU" }));
        }
      }
    }
  });

  it("refuses __proto__ and constructor.prototype keys and leaves Object.prototype alone", async () => {
    const { runtime } = await host();
    for (const [text, path] of [
      ['{"__proto__":{"polluted":1}}', "/__proto__"],
      ['{"a":{"constructor":{"prototype":{"polluted":1}}}}', "/a/constructor/prototype"],
    ] as const) {
      const outcome = await runtime.call("echo", JSON.parse(text));
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code).toBe("INPUT_INVALID");
      expect(outcome.error.message).toContain(path);
      expect(outcome.error.message).toContain("rename or remove it");
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(probe().calls.echo).toBeUndefined();
  });

  it("refuses a 10 MB argument with INPUT_TOO_LARGE before dispatch", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("echo", { text: "x".repeat(10 * 1024 * 1024) });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("INPUT_TOO_LARGE");
    expect(outcome.error.message).toContain("limits.maxInputBytes");
    expect(probe().calls.echo).toBeUndefined();
  });

  it("runs a sandbox: required tool in the child-process sandbox by default, never in-process", async () => {
    const { runtime } = await host();
    try {
      expect(await runtime.call("sandboxed", {})).toMatchObject({ ok: true, content: { sandboxed: true } });
      // The tool's probe counted the call in the child process, not here.
      expect(probe().calls.sandboxed).toBeUndefined();
    } finally {
      runtime.close();
    }
  });

  it("hands sandbox: required tools to dispatchers.required and sandbox: none tools to dispatchers.none", async () => {
    const seen: string[] = [];
    const refusing: Dispatcher = {
      async dispatch(request) {
        seen.push(request.name);
        return {
          ok: false,
          code: "SANDBOX_UNAVAILABLE",
          message: `tool "${request.name}" was not run: no sandbox here`,
          transient: false,
          effectUnknown: false,
        };
      },
      validateOpaque: () => Promise.reject(new Error("not used")),
    };
    const { runtime } = await host({ dispatchers: { required: refusing } });
    const outcome = await runtime.call("sandboxed", {});
    expect(outcome.ok === false && outcome.error).toEqual({
      code: "SANDBOX_UNAVAILABLE",
      message: 'tool "sandboxed" was not run: no sandbox here',
    });
    expect((await runtime.call("echo", { a: 1 })).ok).toBe(true);
    expect(seen).toEqual(["sandboxed"]);
    expect(probe().calls.sandboxed).toBeUndefined();
  });

  // Issue 20: a receipt's hashes are written when first read, from the snapshots' private sorted twins.
  it("hashes in the receipt name the arguments and result as they were, however the tool or the caller changes them after", async () => {
    let kept: { region: string; days: number } | undefined;
    const mutating: Dispatcher = {
      async dispatch(request) {
        const input = request.input as { region: string };
        input.region = "XX";
        kept = { region: "EU", days: 14 };
        return { ok: true, value: kept };
      },
      validateOpaque: () => Promise.reject(new Error("not used")),
    };
    const { runtime, sink } = await host({ dispatchers: { none: mutating } });
    for (const [tool, args] of [
      ["lookup", { region: "EU" }],
      ["echo", { b: [{ z: 1, a: 2 }], a: "x" }],
    ] as const) {
      const sent = structuredClone(args);
      const outcome = await runtime.call(tool, args);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) continue;
      kept!.days = 99;
      (outcome.content as { days: number }).days = 1;
      expect(args).toEqual(sent);
      expect(outcome.receipt.argsSha256).toBe(hashJson(sent));
      expect(outcome.receipt.resultSha256).toBe(hashJson({ region: "EU", days: 14 }));
      expect(Object.isFrozen(outcome.receipt)).toBe(true);
      expect(JSON.parse(JSON.stringify(outcome.receipt))).toMatchObject({
        argsSha256: hashJson(sent),
        resultSha256: hashJson({ region: "EU", days: 14 }),
      });
      // Still plain JSON data: a tool may return or pass on a nested call's receipt, output schema or not.
      expect(snapshotJson(outcome.receipt, 10_000)).toMatchObject({
        ok: true,
        value: JSON.parse(JSON.stringify(outcome.receipt)),
      });
    }
    expect(sink.receipts.map((receipt) => Object.keys(receipt))).toEqual([
      Object.keys(sink.receipts[0]!),
      Object.keys(sink.receipts[0]!),
    ]);
    expect(Object.keys(sink.receipts[0]!)).toEqual([
      "callId",
      "parentId",
      "runId",
      "correlationId",
      "tool",
      "lockIntegrity",
      "argsSha256",
      "resultSha256",
      "outcome",
      "effectUnknown",
      "durationMs",
      "isolation",
    ]);
    // Nothing else on a receipt, not even a hidden property: the pending hashes are private fields no reflection sees.
    expect(Reflect.ownKeys(sink.receipts[0]!)).toEqual(Object.keys(sink.receipts[0]!));
    expect(structuredClone(sink.receipts[0])).toEqual({ ...sink.receipts[0] });
  });

  it("runs a sandbox: required tool through the dispatcher passed as required", async () => {
    const { runtime } = await host({ dispatchers: { required: inProcessDispatcher } });
    expect(await runtime.call("sandboxed", {})).toMatchObject({ ok: true, content: { sandboxed: true } });
    expect(probe().calls.sandboxed).toBe(1);
  });
});

describe("budget", () => {
  it("counts calls per run and refuses past maxCalls", async () => {
    const { runtime } = await host();
    const run = runtime.startRun({ budget: { maxCalls: 2 } });
    expect((await run.call("poll", { job: "a" })).ok).toBe(true);
    expect((await run.call("poll", { job: "a" })).ok).toBe(true);
    const third = await run.call("poll", { job: "a" });
    expect(third.ok).toBe(false);
    if (third.ok) return;
    expect(third.error.code).toBe("BUDGET_EXCEEDED");
    expect(third.error.message).toContain("budget.maxCalls");
    expect(probe().calls.poll).toBe(2);
    expect(run.usage().calls).toBe(2);
    // Another run has its own budget.
    expect((await runtime.startRun({ budget: { maxCalls: 2 } }).call("poll", { job: "a" })).ok).toBe(true);
  });

  it("refuses calls once the run's wall-time budget is spent", async () => {
    const { runtime } = await host();
    const run = runtime.startRun({ budget: { maxWallMs: 30 } });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const outcome = await run.call("lookup", { region: "EU" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("BUDGET_EXCEEDED");
    expect(outcome.error.message).toContain("budget.maxWallMs");
    expect(probe().calls.lookup).toBeUndefined();
  });
});

describe("breaker", () => {
  it("opens after N consecutive failures, refuses without running, and closes after a successful trial", async () => {
    const { runtime } = await host({ breaker: { failureThreshold: 2, cooldownMs: 150 } });
    expect((await runtime.call("boom", { n: 1 })).ok).toBe(false);
    expect((await runtime.call("boom", { n: 2 })).ok).toBe(false);
    const refused = await runtime.call("boom", { n: 3 });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe("BREAKER_OPEN");
    expect(refused.error.message).toContain("failed 2 times in a row");
    expect(probe().calls.boom).toBe(2);
    // Other tools are not affected.
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 200));
    probe().flags.boomHealthy = true;
    expect(await runtime.call("boom", { n: 4 })).toMatchObject({ ok: true, content: { n: 4 } });
    expect(await runtime.call("boom", { n: 5 })).toMatchObject({ ok: true });
  });

  it("re-opens when the half-open trial fails", async () => {
    const { runtime } = await host({ breaker: { failureThreshold: 1, cooldownMs: 100 } });
    expect((await runtime.call("boom", { n: 1 })).ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const trial = await runtime.call("boom", { n: 2 });
    expect(trial.ok === false && trial.error.code).toBe("TOOL_ERROR");
    const after = await runtime.call("boom", { n: 3 });
    expect(after.ok === false && after.error.code).toBe("BREAKER_OPEN");
    expect(probe().calls.boom).toBe(2);
  });

  it("one run's failures open the tool's breaker for that run only (issue 13: one conversation could deny a tool to everyone)", async () => {
    const { runtime } = await host({ breaker: { failureThreshold: 3, cooldownMs: 60_000 } });
    const hostile = runtime.startRun();
    for (let n = 1; n <= 3; n++)
      expect(await hostile.call("boom", { n })).toMatchObject({ ok: false, error: { code: "TOOL_ERROR" } });
    const refused = await hostile.call("boom", { n: 4 });
    expect(refused).toMatchObject({ ok: false, error: { code: "BREAKER_OPEN" } });
    if (refused.ok) return;
    expect(refused.error.message).toContain(`failed 3 times in a row in run ${hostile.id}`);
    expect(refused.error.message).toContain("in this run");
    expect(probe().calls.boom).toBe(3);
    // Everyone else still reaches the tool.
    probe().flags.boomHealthy = true;
    expect(await runtime.startRun().call("boom", { n: 5 })).toMatchObject({ ok: true, content: { n: 5 } });
    expect(await runtime.call("boom", { n: 6 })).toMatchObject({ ok: true });
    expect(await hostile.call("boom", { n: 7 })).toMatchObject({ ok: false, error: { code: "BREAKER_OPEN" } });
  });

  it("a tool failing in threshold different runs in a row is refused in every run; a success in between resets the streak", async () => {
    const { runtime } = await host({ breaker: { failureThreshold: 3, cooldownMs: 60_000 } });
    const fail = async () =>
      expect(await runtime.startRun().call("boom", { n: 1 })).toMatchObject({
        ok: false,
        error: { code: "TOOL_ERROR" },
      });
    await fail();
    await fail();
    probe().flags.boomHealthy = true;
    expect(await runtime.startRun().call("boom", { n: 2 })).toMatchObject({ ok: true });
    probe().flags.boomHealthy = false;
    await fail();
    await fail();
    await fail();
    const refused = await runtime.startRun().call("boom", { n: 3 });
    expect(refused).toMatchObject({ ok: false, error: { code: "BREAKER_OPEN" } });
    if (refused.ok) return;
    expect(refused.error.message).toContain("failed in 3 different runs in a row");
    expect(refused.error.message).toContain("in every run");
    expect(probe().calls.boom).toBe(6);
  });

  it("does not count refused input against the tool", async () => {
    const { runtime } = await host({ breaker: { failureThreshold: 1, cooldownMs: 60_000 } });
    const bad = await runtime.call("lookup", { region: 5 });
    expect(bad.ok === false && bad.error.code).toBe("INPUT_INVALID");
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });
});

describe("repeat guard", () => {
  it("stops an identical call with permuted keys, naming the earlier receipt; different arguments run", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    const first = await run.call("echo", { a: 1, b: { c: [1, 2], d: "x" } });
    expect(first.ok).toBe(true);
    const again = await run.call("echo", { b: { d: "x", c: [1, 2] }, a: 1.0 });
    expect(again.ok).toBe(false);
    if (again.ok) return;
    expect(again.error.code).toBe("REPEAT_STOPPED");
    expect(again.error.message).toContain(first.receipt.callId);
    expect(again.error.message).toContain("allowRepeat");
    expect((await run.call("echo", { a: 2, b: { c: [1, 2], d: "x" } })).ok).toBe(true);
    expect(probe().calls.echo).toBe(2);
    // A new run starts with a clean slate.
    expect((await runtime.startRun().call("echo", { a: 1, b: { c: [1, 2], d: "x" } })).ok).toBe(true);
  });

  it("arguments with one structural hash and different texts are two calls; -0 and 0 are one", async () => {
    // Counting up until two arguments of the form { q: "s<i>" } share a repeat hash (deterministic).
    const seen = new Map<number, number>();
    let pair: [unknown, unknown] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const hash = structuralHash({ q: `s${i}` });
      const earlier = seen.get(hash);
      if (earlier !== undefined) pair = [{ q: `s${earlier}` }, { q: `s${i}` }];
      seen.set(hash, i);
    }
    const { runtime } = await host();
    const run = runtime.startRun();
    const a = await run.call("echo", pair[0]);
    const b = await run.call("echo", pair[1]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    const againA = await run.call("echo", pair[0]);
    const againB = await run.call("echo", pair[1]);
    expect(againA.ok === false && againA.error.message).toContain(a.receipt.callId);
    expect(againB.ok === false && againB.error.message).toContain(b.receipt.callId);
    expect((await run.call("echo", { n: -0 })).ok).toBe(true);
    expect(await run.call("echo", { n: 0 })).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    expect(probe().calls.echo).toBe(3);
  });

  it("never stops an allowRepeat tool", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    const outcomes = [
      await run.call("poll", { job: "j" }),
      await run.call("poll", { job: "j" }),
      await run.call("poll", { job: "j" }),
    ];
    expect(outcomes.map((o) => o.ok && (o.content as { calls: number }).calls)).toEqual([1, 2, 3]);
  });

  it("counts a dispatched call that failed, but not one refused before dispatch", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    const refused = await run.call("lookup", { region: "E" });
    expect(refused.ok === false && refused.error.code).toBe("INPUT_INVALID");
    const refusedAgain = await run.call("lookup", { region: "E" });
    expect(refusedAgain.ok === false && refusedAgain.error.code).toBe("INPUT_INVALID");
    const failedRun = await run.call("bad_output", { secret: "s", asKey: false });
    expect(failedRun.ok === false && failedRun.error.code).toBe("OUTPUT_INVALID");
    const repeated = await run.call("bad_output", { secret: "s", asKey: false });
    expect(repeated.ok === false && repeated.error.code).toBe("REPEAT_STOPPED");
    expect(probe().calls.bad_output).toBe(1);
  });
});

describe("repeat guard: refused first calls, calls still running, two tools", () => {
  it("a first call refused before dispatch leaves nothing behind; the next call is then the first", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    expect(await run.call("lookup", { region: "E" })).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
    expect((await run.call("lookup", { region: "EU" })).ok).toBe(true);
    expect(await run.call("lookup", { region: "EU" })).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    expect((await run.call("lookup", { region: "US" })).ok).toBe(true);
    expect(await run.call("lookup", { region: "US" })).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    expect(probe().calls.lookup).toBe(2);
  });

  it("a call still running stops an identical one, and once refused before dispatch gives its key back", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    // The first call waits for its validator to load; the others start meanwhile.
    const first = run.call("lookup", { region: "E" });
    const identical = run.call("lookup", { region: "E" });
    const other = run.call("lookup", { region: "EU" });
    const stopped = await identical;
    expect(stopped).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    expect(stopped.ok === false && stopped.error.message).toContain("still running");
    expect(await first).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
    expect((await other).ok).toBe(true);
    // The refused first call was never dispatched: its key is free again, so the same arguments reach validation.
    expect(await run.call("lookup", { region: "E" })).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
    expect(await run.call("lookup", { region: "EU" })).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
  });

  it("keys differ by tool: the same arguments to two tools are two first calls", async () => {
    const { runtime } = await host();
    const run = runtime.startRun();
    expect((await run.call("echo", { region: "EU" })).ok).toBe(true);
    expect((await run.call("lookup", { region: "EU" })).ok).toBe(true);
    expect(await run.call("echo", { region: "EU" })).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    expect(await run.call("lookup", { region: "EU" })).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
  });
});

describe("effect gate", () => {
  it("lets a speculative call run a read tool and refuses it for any other effect", async () => {
    const { runtime } = await host();
    expect((await runtime.call("lookup", { region: "EU" }, { speculative: true })).ok).toBe(true);
    const refused = await runtime.call("idem_tool", { id: "1" }, { speculative: true });
    expect(refused.ok === false && refused.error.code).toBe("EFFECT_BLOCKED");
    expect(probe().calls.idem_tool).toBeUndefined();
  });
});

describe("validate input", () => {
  it("refuses input that misses the precompiled schema, naming the path, before any tool code runs", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("lookup", { region: 42 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("INPUT_INVALID");
    expect(outcome.error.message).toContain("at /region");
    expect(outcome.error.message).toContain("fix the arguments");
    const extra = await runtime.call("lookup", { region: "EU", extra: true });
    expect(extra.ok === false && extra.error.code).toBe("INPUT_INVALID");
    const missing = await runtime.call("lookup", {});
    expect(missing.ok === false && missing.error.code).toBe("INPUT_INVALID");
    expect(probe().calls.lookup).toBeUndefined();
  });

  it("runs an opaque (zod) validator with its async transform and passes the transformed value to execute", async () => {
    const { runtime } = await host();
    expect(await runtime.call("zod_tool", { n: "21" })).toMatchObject({ ok: true, content: { doubled: 42 } });
    const bad = await runtime.call("zod_tool", { n: "twenty" });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.code).toBe("INPUT_INVALID");
    expect(bad.error.message).toContain("at /n");
    expect(probe().calls.zod_tool).toBe(1);
  });
});

describe("dispatch", () => {
  it("turns a throw into TOOL_ERROR with its message, and the next call works", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("boom", { n: 7 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    // The stack names the original file and line (docs/runtime.md, "Logs and stacks").
    expect(outcome.error).toEqual({
      code: "TOOL_ERROR",
      message: 'tool "boom" failed: boom 7',
      stack: ["Object.execute (tools/read.ts:149:11)"],
    });
    expect(outcome.receipt.effectUnknown).toBe(false);
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });

  it("turns a synchronous throw into TOOL_ERROR too", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("sync_throw", {});
    expect(outcome.ok === false && outcome.error).toEqual({
      code: "TOOL_ERROR",
      message: 'tool "sync_throw" failed: TypeError: sync failure',
      stack: ["Object.execute (tools/read.ts:186:11)"],
    });
    expect(probe().calls.sync_throw).toBe(1);
    expect((await runtime.call("sync_throw", {})).ok).toBe(false);
    expect(probe().calls.sync_throw).toBe(2);
  });

  it("retries a read tool after a transient failure, with the same arguments", async () => {
    const { runtime } = await host();
    probe().flags.boomTransientLeft = 2;
    const outcome = await runtime.call("boom", { n: 1 });
    // Two transient failures, then the plain failure of the third attempt: three attempts in all.
    expect(outcome.ok === false && outcome.error.code).toBe("TOOL_ERROR");
    expect(probe().calls.boom).toBe(3);
  });

  it("retries an idempotent tool on a transient cause until it succeeds, within retry.maxAttempts", async () => {
    const { runtime } = await host();
    probe().flags.idemTransientLeft = 1;
    expect(await runtime.call("idem_tool", { id: "a" })).toMatchObject({ ok: true, content: { set: "a" } });
    expect(probe().calls.idem_tool).toBe(2);

    const once = await createRuntime({ root, mode: "host", retry: { maxAttempts: 1 } });
    probe().flags.idemTransientLeft = 1;
    const failed = await once.call("idem_tool", { id: "b" });
    expect(failed.ok === false && failed.error.code).toBe("TOOL_ERROR");
    expect(probe().calls.idem_tool).toBe(3);
  });

  it("never retries an external (or write) tool, and never retries a non-transient failure", async () => {
    const { runtime } = await host();
    probe().flags.extTransient = true;
    const outcome = await runtime.call("ext_tool", { id: "x" });
    expect(outcome.ok === false && outcome.error.code).toBe("TOOL_ERROR");
    expect(probe().calls.ext_tool).toBe(1);
    const plain = await runtime.call("boom", { n: 2 });
    expect(plain.ok === false && plain.error.code).toBe("TOOL_ERROR");
    expect(probe().calls.boom).toBe(1);
  });
});

describe("timeout", () => {
  it("resolves a hanging read tool at its deadline and aborts its signal", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("hang", {});
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("TIMEOUT");
    expect(outcome.error.message).toContain("300 ms");
    expect(outcome.receipt.effectUnknown).toBe(false);
    expect(probe().aborted.hang).toBe(true);
    expect((await runtime.call("lookup", { region: "EU" })).ok).toBe(true);
  });

  it("marks the effect of a timed-out write as unknown", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("write_hang", {});
    expect(outcome.ok === false && outcome.error.code).toBe("TIMEOUT");
    expect(outcome.receipt.effectUnknown).toBe(true);
    expect(outcome.ok === false && outcome.error.message).toContain("effectUnknown");
  });
});

describe("validate output", () => {
  const SENTINEL = "SENTINEL-b7c4e1d0-raw-output";

  it("withholds an invalid output: the sentinel is nowhere in the outcome, receipts or console", async () => {
    const { runtime, sink } = await host();
    const written: string[] = [];
    const original = {
      out: process.stdout.write,
      err: process.stderr.write,
      log: console.log,
      error: console.error,
      warn: console.warn,
    };
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    console.log = console.error = console.warn = (...args: unknown[]) => void written.push(args.map(String).join(" "));
    let outcomes;
    try {
      outcomes = [
        await runtime.call("bad_output", { secret: SENTINEL, asKey: false }),
        await runtime.call("bad_output", { secret: SENTINEL, asKey: true }),
        await runtime.call("zod_tool", { n: "13" }),
      ];
    } finally {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
      console.log = original.log;
      console.error = original.error;
      console.warn = original.warn;
    }
    for (const outcome of outcomes) {
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code).toBe("OUTPUT_INVALID");
      expect(outcome.error.message).toMatch(
        /withheld \(\d+ bytes, fingerprint hmac-sha256-[0-9a-f]{64}, keyed with a secret of this runtime\)/,
      );
      expect(outcome.receipt.resultSha256).toBeNull();
    }
    const everything = JSON.stringify({ outcomes, receipts: sink.receipts }) + written.join("");
    expect(everything).not.toContain("SENTINEL");
    // The arguments carried the sentinel, but the receipt holds only their hash.
    expect(outcomes[0]!.receipt.argsSha256).toBe(hashJson({ secret: SENTINEL, asKey: false }));
  });

  // Issue 11 item 9: a tool without an output schema keeps native JSON serialisation (the contract).
  it.each(NATIVE_CONTENT)("without an output schema, %s gives what JSON.stringify gives", async (kind, content) => {
    const { runtime } = await host();
    const outcome = await runtime.call("not_json", { kind });
    expect(outcome).toMatchObject({ ok: true, content });
    if (outcome.ok) expect(outcome.receipt.resultSha256).toBe(hashJson(content));
  });

  it.each(NATIVE_REFUSED)(
    "without an output schema, %s still fails typed: OUTPUT_NOT_SERIALISABLE",
    async (kind, detail) => {
      const { runtime } = await host();
      const outcome = await runtime.call("not_json", { kind });
      expect(outcome).toMatchObject({ ok: false, error: { code: "OUTPUT_NOT_SERIALISABLE" } });
      if (outcome.ok) return;
      expect(outcome.error.message).toContain(`JSON.stringify cannot write: ${detail}`);
      expect(await runtime.call("not_json", { kind: "fine" })).toMatchObject({ ok: true, content: { fine: true } });
    },
  );

  it("without an output schema, a __proto__ key is still refused", async () => {
    const { runtime } = await host();
    const outcome = await runtime.call("not_json", { kind: "protoKey" });
    expect(outcome).toMatchObject({ ok: false, error: { code: "OUTPUT_NOT_SERIALISABLE" } });
    if (!outcome.ok)
      expect(outcome.error.message).toContain("a __proto__ or constructor.prototype key at /ok/__proto__");
  });

  it.each(TYPED_REFUSED)(
    "with an output schema, %s is refused as not plain JSON data, naming no key or path of it",
    async (kind, detail) => {
      const { runtime } = await host();
      const outcome = await runtime.call("not_json_typed", { kind });
      expect(outcome).toMatchObject({ ok: false, error: { code: "OUTPUT_NOT_SERIALISABLE" } });
      if (outcome.ok) return;
      expect(outcome.error.message).toContain(`not plain JSON data (${detail})`);
      expect(outcome.error.message).toContain("nothing was dropped or converted");
      expect(outcome.error.message).not.toMatch(/ at \//);
      expect(outcome.error.message).not.toContain("Point");
    },
  );

  it("with an output schema, neither a key nor a class name of the value reaches the outcome or the receipts (issue 13 item 7)", async () => {
    const { runtime, sink } = await host();
    const outcomes = [
      await runtime.call("not_json_typed", { kind: "secretKey" }),
      await runtime.call("not_json_typed", { kind: "secretClass" }),
    ];
    for (const outcome of outcomes)
      expect(outcome).toMatchObject({ ok: false, error: { code: "OUTPUT_NOT_SERIALISABLE" } });
    expect(JSON.stringify({ outcomes, receipts: sink.receipts })).not.toContain("4711");
  });

  it("OUTPUT_INVALID prints no unkeyed hash: its fingerprint is keyed per runtime, so a guessed value cannot be checked against it", async () => {
    const pin = "4711";
    const fingerprints: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { runtime } = await host();
      for (let j = 0; j < 2; j++) {
        const outcome = await runtime.startRun().call("bad_output", { secret: pin, asKey: false });
        if (outcome.ok) throw new Error("expected OUTPUT_INVALID");
        expect(outcome.error.message).not.toContain(hashJson({ value: pin }));
        expect(outcome.error.message).not.toMatch(/(?<!hmac-)sha256-/);
        fingerprints.push(/hmac-sha256-([0-9a-f]{64})/.exec(outcome.error.message)![1]!);
      }
    }
    // Equal within a runtime (the same invalid value is recognisable in its logs), unrelated across runtimes.
    expect(fingerprints[0]).toBe(fingerprints[1]);
    expect(fingerprints[2]).toBe(fingerprints[3]);
    expect(fingerprints[0]).not.toBe(fingerprints[2]);
  });

  it("refuses a 50 MB output at the byte cap", async () => {
    const { runtime, sink } = await host();
    const outcome = await runtime.call("big_output", { bytes: 50 * 1024 * 1024 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("OUTPUT_TOO_LARGE");
    expect(outcome.error.message).toContain("limits.maxOutputBytes");
    expect(sink.receipts[0]!.resultSha256).toBeNull();
    expect(await runtime.call("big_output", { bytes: 10 })).toMatchObject({ ok: true, content: "xxxxxxxxxx" });
  });

  it("decides the cap on exact canonical bytes", async () => {
    const { runtime } = await host({ limits: { maxOutputBytes: 12 } });
    // "x" * 10 is 12 bytes of JSON with its quotes; one more is over.
    expect((await runtime.call("big_output", { bytes: 10 })).ok).toBe(true);
    const over = await runtime.call("big_output", { bytes: 11 });
    expect(over.ok === false && over.error.code).toBe("OUTPUT_TOO_LARGE");
  });
});

describe("result and receipt", () => {
  it("returns a detached copy: mutating the content does not change what was hashed", async () => {
    const { runtime } = await host();
    const args = { list: [1, 2] };
    const outcome = await runtime.call("echo", args);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.content).toEqual(args);
    expect(outcome.content).not.toBe(args);
    expect(outcome.receipt.resultSha256).toBe(hashJson(args));
  });

  it("awaits the receipt sink, and a failing sink rejects the call instead of losing the receipt", async () => {
    const order: string[] = [];
    const runtime = await createRuntime({
      root,
      mode: "host",
      receipts: {
        async record(receipt) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(`recorded ${receipt.outcome}`);
        },
      },
    });
    await runtime.call("lookup", { region: "EU" });
    order.push("returned");
    expect(order).toEqual(["recorded ok", "returned"]);

    const failing = await createRuntime({
      root,
      mode: "host",
      receipts: { record: () => Promise.reject(new Error("journal down")) },
    });
    await expect(failing.call("lookup", { region: "EU" })).rejects.toThrow("journal down");
  });

  it("every outcome code is a registered runtime code", async () => {
    const { runtime, sink } = await host();
    await runtime.call("nope", {});
    await runtime.call("lookup", { region: 1 });
    await runtime.call("boom", { n: 1 });
    for (const receipt of sink.receipts) expect(Object.keys(RUNTIME_CODES)).toContain(receipt.outcome);
  });
});
