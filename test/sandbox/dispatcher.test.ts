// The sandbox dispatcher's own behaviour: pooling, spares, nested calls, opaque validators, the
// environment it builds, start-up failures and its options.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallOutcome, createRuntime, type Dispatcher } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, gone, sandboxed } from "./support/runtime.js";
import { waitFor } from "./support/wait-for.js";

/**
 * The pool's mechanics (leases, spares, recycling, closing) are the same whatever launches a child; these tests tell
 * children apart by the pid a tool reports, which under the OS layer is its own pid namespace's (2 for every child),
 * so they run with the Node layers. The launcher's own behaviour (kills reaching node inside bwrap) is os-layer.test.ts.
 */
const NODE = { sandbox: { isolation: "node" as const } };

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

const content = <T>(outcome: CallOutcome): T => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return (outcome as { content: T }).content;
};

describe("pooling", () => {
  it("a run's calls of one tool share one warm child", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "node", spare: false } });
    const run = runtime.startRun();
    const a = content<{ pid: number; served: number }>(await run.call("add", { a: 1, b: 1 }));
    const b = content<{ pid: number; served: number }>(await run.call("add", { a: 1, b: 2 }));
    expect(b.pid).toBe(a.pid);
    expect([a.served, b.served]).toEqual([1, 2]);
    expect(sandbox.stats()).toMatchObject({ spawned: 1, live: 1, idle: 1 });
  });

  it("a call whose deadline passed before the host had it (the host was still loading) still starts its child, which then serves the next call", async () => {
    const sandbox = createSandboxDispatcher({ isolation: "node", spare: false });
    // What the runtime hands the sandbox, the first call's deadline already past when it arrives.
    let calls = 0;
    const late: Dispatcher = {
      dispatch: (request) =>
        calls++ > 0
          ? sandbox.dispatch(request)
          : sandbox.dispatch({
              ...request,
              context: {
                callId: request.context.callId,
                idempotencyKey: request.context.idempotencyKey,
                call: request.context.call,
                signal: AbortSignal.abort(),
              },
            }),
      validateOpaque: (request) => sandbox.validateOpaque(request),
    };
    const runtime = await createRuntime({ root, mode: "host", dispatchers: { required: late } });
    try {
      const run = runtime.startRun();
      const timedOut = await run.call("add", { a: 1, b: 1 });
      expect(timedOut.ok === false && timedOut.error.code).toBe("TIMEOUT");
      await waitFor(() => sandbox.stats().idle > 0);
      expect(sandbox.stats()).toMatchObject({ spawned: 1, live: 1, idle: 1 });
      const next = content<{ sum: number; served: number }>(await run.call("add", { a: 1, b: 2 }));
      expect(next).toMatchObject({ sum: 3, served: 1 });
      expect(sandbox.stats().spawned).toBe(1);
    } finally {
      sandbox.close();
    }
  });

  it("never shares a child across runs or across tools (even tools of one module)", async () => {
    const { runtime } = await sandboxed(root, { sandbox: { isolation: "node", spare: false } });
    const one = runtime.startRun();
    const two = runtime.startRun();
    const a = content<{ pid: number }>(await one.call("add", { a: 1, b: 1 }));
    const b = content<{ pid: number }>(await two.call("add", { a: 1, b: 1 }));
    const c = content<{ pid: number }>(await one.call("whoami", {}));
    expect(new Set([a.pid, b.pid, c.pid]).size).toBe(3);
  });

  it("recycles a child after recycleAfterCalls requests", async () => {
    const { runtime } = await sandboxed(root, { sandbox: { isolation: "node", spare: false, recycleAfterCalls: 2 } });
    const pids = [];
    for (let i = 0; i < 3; i++) pids.push(content<{ pid: number }>(await runtime.call("add", { a: i, b: 0 })).pid);
    expect(pids[1]).toBe(pids[0]);
    expect(pids[2]).not.toBe(pids[0]);
    expect(await gone(pids[0]!)).toBe(true);
  });

  it("keeps a spare per tool that has served no run, for the tool's first call in the next run", async () => {
    const { runtime, sandbox } = await sandboxed(root, NODE);
    const first = content<{ pid: number; served: number }>(await runtime.startRun().call("add", { a: 1, b: 1 }));
    await waitFor(() => sandbox.stats().spares === 1);
    const spare = sandbox.pids().find((pid) => pid !== first.pid);
    const next = content<{ pid: number; served: number }>(await runtime.startRun().call("add", { a: 1, b: 1 }));
    expect(next).toMatchObject({ pid: spare, served: 1 });
  });

  it("keeps at most maxIdle children waiting and stops them after idleTimeoutMs", async () => {
    const { runtime, sandbox } = await sandboxed(root, {
      sandbox: { isolation: "node", spare: false, maxIdle: 1, idleTimeoutMs: 300 },
    });
    await runtime.call("add", { a: 1, b: 1 });
    await runtime.call("whoami", {});
    expect(sandbox.stats().idle).toBe(1);
    await waitFor(() => sandbox.stats().live === 0);
  });

  it("close() stops every child; a later call starts a new one", async () => {
    const { runtime, sandbox } = await sandboxed(root, NODE);
    const before = content<{ pid: number }>(await runtime.call("add", { a: 1, b: 1 })).pid;
    sandbox.close();
    expect(await gone(before)).toBe(true);
    expect(sandbox.stats().live).toBe(0);
    expect(content<{ pid: number }>(await runtime.call("add", { a: 2, b: 1 })).pid).not.toBe(before);
  });
});

describe("nested calls", () => {
  it("go from the child through the host's pipeline, to sandboxed and in-process tools, with receipts naming the parent", async () => {
    const { runtime, receipts } = await sandboxed(root, NODE);
    const outcome = await runtime.call("composite", {
      calls: [
        { name: "add", args: { a: 1, b: 2 } },
        { name: "host_lookup", args: { key: "k" } },
        { name: "fault", args: { kind: "throw" } },
        { name: "whoami", args: {} },
      ],
    });
    const parent = outcome.receipt.callId;
    const results =
      content<Array<{ ok: boolean; content?: Record<string, unknown>; code?: string; parentId: string }>>(outcome);
    expect(results.map((r) => (r.ok ? "ok" : r.code))).toEqual(["ok", "ok", "TOOL_ERROR", "NESTED_NOT_DECLARED"]);
    expect(results[0]!.content).toMatchObject({ sum: 3 });
    expect(results[1]!.content).toMatchObject({ key: "k", hostPid: process.pid });
    expect(results.every((r) => r.parentId === parent)).toBe(true);
    expect(
      receipts.receipts
        .filter((r) => r.parentId === parent)
        .map((r) => r.tool)
        .sort(),
    ).toEqual(["add", "fault", "host_lookup", "whoami"]);
  });

  it("run in parallel", async () => {
    const { runtime } = await sandboxed(root, NODE);
    const outcome = await runtime.call("composite", {
      parallel: true,
      calls: [
        { name: "add", args: { a: 1, b: 1 } },
        { name: "add", args: { a: 2, b: 2 } },
        { name: "host_lookup", args: { key: "x" } },
      ],
    });
    expect(content<Array<{ ok: boolean }>>(outcome).map((r) => r.ok)).toEqual([true, true, true]);
  });

  it("arguments that are not JSON data are refused inside the child, saying why", async () => {
    const { runtime } = await sandboxed(root, NODE);
    expect(content(await runtime.call("bad_nested", {}))).toEqual({
      refused: true,
      message: 'context.call("add") arguments must be plain JSON data to leave the sandbox: a function at /b',
    });
  });

  it("a nested call made after the parent answered goes nowhere, and the child stays healthy", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "node", spare: false } });
    const run = runtime.startRun();
    const first = content<{ pid: number }>(await run.call("late_nested", {}));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(content<{ pid: number }>(await run.call("late_nested", {})).pid).toBe(first.pid);
    expect(sandbox.stats().spawned).toBe(1);
  });
});

describe("opaque (Standard Schema) validators run in the sandbox", () => {
  it("execute receives the transformed value, even one that is not JSON data (a Date)", async () => {
    const { runtime } = await sandboxed(root, NODE);
    expect(await runtime.call("days_until", { date: "2020-01-11" })).toMatchObject({ ok: true, content: { days: 10 } });
  });

  it("invalid input is INPUT_INVALID with the validator's message; invalid output is withheld", async () => {
    const { runtime } = await sandboxed(root, NODE);
    const input = await runtime.call("days_until", { date: 5 });
    expect(input).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
    expect(input.ok ? "" : input.error.message).toContain("at /date:");
    const output = await runtime.call("days_until", { date: "1999-01-11" });
    expect(output).toMatchObject({ ok: false, error: { code: "OUTPUT_INVALID" } });
  });
});

describe("the child's environment", () => {
  it("holds exactly the allow-listed names that are set on the host: no PATH, no HOME, nothing else", async () => {
    process.env.CAVE_TEST_GREETING = "hello";
    try {
      const { runtime } = await sandboxed(root, NODE);
      const seen = content<{ env: Record<string, string> }>(await runtime.call("whoami", {}));
      expect(seen.env).toEqual({
        CAVE_TEST_GREETING: "hello",
        ...(process.env.LOG_LEVEL === undefined ? {} : { LOG_LEVEL: process.env.LOG_LEVEL }),
      });
    } finally {
      delete process.env.CAVE_TEST_GREETING;
    }
  });

  it("runs in its own session and process group", async () => {
    const { runtime } = await sandboxed(root, NODE);
    const { pid, ppid } = content<{ pid: number; ppid: number }>(await runtime.call("whoami", {}));
    expect(ppid).toBe(process.pid);
    const { readFileSync } = await import("node:fs");
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // fields: state, ppid, pgrp, session
    expect(Number(fields[2])).toBe(pid);
    expect(Number(fields[3])).toBe(pid);
  });
});

describe("a tool module that misbehaves while loading", () => {
  const set = (value: string) => (process.env.CAVE_TEST_START = value);
  afterAll(() => {
    delete process.env.CAVE_TEST_START;
  });

  it("top-level code that never finishes: killed after startTimeoutMs, TIMEOUT saying so", async () => {
    set("hang");
    const { runtime } = await sandboxed(root, { sandbox: { isolation: "node", startTimeoutMs: 500 } });
    const outcome = await runtime.call("start_up", {});
    expect(outcome).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(outcome.ok ? "" : outcome.error.message).toContain("did not finish loading the tool's module within 500 ms");
  });

  it("top-level code that throws: TOOL_ERROR naming the module's failure", async () => {
    set("throw");
    const { runtime } = await sandboxed(root, NODE);
    const outcome = await runtime.call("start_up", {});
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: "TOOL_ERROR", message: 'tool "start_up": its module failed to load: the module refuses to load' },
    });
  });

  it("top-level code that reaches for the network: NETWORK_REFUSED (the deny layer is in before the first byte of the tool)", async () => {
    set("network");
    const { runtime } = await sandboxed(root, NODE);
    expect(await runtime.call("start_up", {})).toMatchObject({ ok: false, error: { code: "NETWORK_REFUSED" } });
  });
});

describe("options", () => {
  it.each([
    [{ heapMB: 64 }, 'unknown option "heapMB" in createSandboxDispatcher() options'],
    [{ heapMb: 1 }, "heapMb must be an integer of at least 16 (got 1)"],
    [{ isolation: "yes" }, 'isolation must be "os", "auto" or "node" (got "yes")'],
    [{ limits: { maxOutput: 1 } }, 'unknown option "limits.maxOutput" in limits'],
    [{ spare: "no" }, 'spare must be a boolean (got "no")'],
  ])("%j is refused: %s", (options, message) => {
    expect(() => createSandboxDispatcher(options as never)).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID", message: expect.stringContaining(message) }),
    );
  });
});
