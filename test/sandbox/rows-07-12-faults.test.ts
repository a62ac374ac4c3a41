// Adversarial table rows 7-12 (../shared/sandbox.md): faults become outcome codes, the host survives
// every one, and the next call works.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallOutcome } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { startHost } from "./support/host-process.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, gone, sandboxed, type Sandboxed, code } from "./support/runtime.js";
import { waitFor } from "./support/wait-for.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

function message(outcome: CallOutcome): string {
  return outcome.ok ? "" : outcome.error.message;
}

/** Calls `fault` (or `bomb`, `flood`) and then proves the sandbox still works with a plain call. */
async function faultThenFine(s: Sandboxed, kind: string, name = "fault"): Promise<CallOutcome> {
  const outcome = await s.runtime.call(name, { kind });
  expect(await s.runtime.call("fault", { kind: "fine" })).toMatchObject({ ok: true, content: { fine: true } });
  return outcome;
}

describe("row 7: the tool throws or rejects", () => {
  it.each([
    ["throw", "thrown on purpose"],
    ["reject", "rejected on purpose"],
    ["unhandled", "an unhandled promise rejection: nobody handles this"],
    ["uncaught", "an uncaught exception: thrown from a timer"],
  ])("%s: TOOL_ERROR with its message; the next call succeeds", async (kind, text) => {
    const s = await sandboxed(root);
    const outcome = await faultThenFine(s, kind);
    expect(code(outcome)).toBe("TOOL_ERROR");
    expect(message(outcome)).toContain(`tool "fault" failed: `);
    expect(message(outcome)).toContain(text);
  });

  it("keeps a child that reported an ordinary error, and replaces one that faulted", async () => {
    const s = await sandboxed(root, { sandbox: { spare: false } });
    const first = await s.runtime.call("fault", { kind: "pid" });
    // The host pid of the node process that answered (no spares: it is the only child).
    const [firstPid] = s.sandbox.pids();
    await s.runtime.call("fault", { kind: "throw" });
    const afterThrow = await s.runtime.call("fault", { kind: "pid" });
    await s.runtime.call("fault", { kind: "unhandled" });
    const afterFault = await s.runtime.call("fault", { kind: "pid" });
    const instance = (o: CallOutcome) => (o.ok ? (o.content as { instance: string }).instance : "none");
    expect(instance(afterThrow)).toBe(instance(first));
    expect(instance(afterFault)).not.toBe(instance(first));
    expect(await gone(firstPid!)).toBe(true);
  });
});

describe("row 8: a CPU hang", () => {
  it("for(;;){} with a 200 ms timeout: TIMEOUT at the deadline, the child's pid is gone, the next call succeeds", async () => {
    const s = await sandboxed(root);
    // A child's start-up can take longer than 200 ms on a loaded machine: the first call may time out
    // while the child loads, which then waits as a spare. Warm up until a call is answered. The wait for that spare
    // does not fail the test: when the deadline came before a child was chosen (the first call also probes the OS
    // layer and stages the files; seen once on Node 22 under CI's load), the next attempt starts one.
    let warm: CallOutcome | undefined;
    const missed: string[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      warm = await s.runtime.call("spin", { kind: "pid" });
      if (warm.ok) break;
      missed.push(code(warm));
      await waitFor(() => s.sandbox.stats().spares > 0 || s.sandbox.stats().idle > 0, 5_000).catch(() => undefined);
    }
    expect(warm?.ok, `the warm-up calls gave ${missed.join(", ")}`).toBe(true);
    const instance = (warm as { content: { instance: string } }).content.instance;
    // The warm child and its spare: the warm one must be gone after the kill. The spare must be ready first: under the
    // OS layer a child still starting is known by bwrap's pid until its node process inside can be read.
    await waitFor(() => s.sandbox.stats().spares > 0);
    const before = s.sandbox.pids();

    const started = performance.now();
    const outcome = await s.runtime.call("spin", { kind: "spin" });
    const elapsed = performance.now() - started;
    expect(code(outcome)).toBe("TIMEOUT");
    expect(message(outcome)).toContain("did not finish within its timeout of 200 ms");
    expect(elapsed, "the call did not hang").toBeLessThan(2_000);
    const killed = before.filter((pid) => !s.sandbox.pids().includes(pid));
    expect(killed).toHaveLength(1);
    expect(await gone(killed[0]!)).toBe(true);

    await waitFor(() => s.sandbox.stats().spares > 0);
    const next = await s.runtime.call("spin", { kind: "pid" });
    expect(next.ok).toBe(true);
    expect((next as { content: { instance: string } }).content.instance).not.toBe(instance);
  });
});

describe("row 9: a native hang", () => {
  it.each(["atomics", "json-parse"])(
    "%s: TIMEOUT at the deadline, not delayed by the stuck child, which is killed",
    async (kind) => {
      const s = await sandboxed(root, { sandbox: { spare: false } });
      expect(code(await s.runtime.call("fault", { kind: "pid" }))).toBe("ok");
      const [pid] = s.sandbox.pids();
      const started = performance.now();
      const outcome = await s.runtime.call("fault", { kind });
      const elapsed = performance.now() - started;
      expect(code(outcome)).toBe("TIMEOUT");
      expect(elapsed, "the result was not held up by the stuck child").toBeLessThan(1_500 + 1_000);
      expect(await gone(pid!)).toBe(true);
      expect(await s.runtime.call("fault", { kind: "fine" })).toMatchObject({ ok: true });
    },
  );

  it("a blocking read of a FIFO is refused by the permission model before it can block", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cave-fifo-"));
    const fifo = "/tmp/cave-sandbox-test-fifo";
    rmSync(fifo, { force: true });
    execFileSync("mkfifo", [fifo]);
    try {
      const s = await sandboxed(root);
      const started = performance.now();
      const outcome = await s.runtime.call("fault", { kind: "fifo" });
      expect(code(outcome)).toBe("SANDBOX_DENIED");
      expect(message(outcome)).toContain("ERR_ACCESS_DENIED");
      expect(performance.now() - started).toBeLessThan(1_500 + 1_000);
    } finally {
      rmSync(fifo, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("row 10: never settles, keeps its event loop alive", () => {
  it.each(["pending", "interval"])("%s: TIMEOUT", async (kind) => {
    const s = await sandboxed(root);
    expect(code(await faultThenFine(s, kind))).toBe("TIMEOUT");
  });

  it("a host that made such calls exits by itself when its work is done (no leaked handle)", async () => {
    const host = await startHost({
      root,
      calls: [
        { name: "add", args: { a: 1, b: 2 } },
        { name: "fault", args: { kind: "pending" } },
        { name: "fault", args: { kind: "interval" } },
        { name: "add", args: { a: 2, b: 3 } },
      ],
    });
    const exited = await Promise.race([
      host.exited,
      new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 30_000)),
    ]);
    if (exited === "hung") host.child.kill("SIGKILL");
    expect(exited).toEqual({ code: 0, signal: null });
    const events = host.lines.map((line) => JSON.parse(line) as { code?: string | null; done?: boolean });
    expect(events.map((e) => e.code ?? null)).toEqual([null, "TIMEOUT", "TIMEOUT", null, null]);
    expect(events.at(-1)).toEqual({ done: true });
  });
});

describe("row 11: memory bombs", () => {
  it("a heap bomb is RESOURCE_EXHAUSTED at the heap limit; the host lives", async () => {
    const s = await sandboxed(root, { sandbox: { heapMb: 64 } });
    const outcome = await faultThenFine(s, "heap", "bomb");
    expect(code(outcome)).toBe("RESOURCE_EXHAUSTED");
    expect(message(outcome)).toContain("ran out of JavaScript heap (the sandbox's heapMb is 64)");
  });

  it("a filled Buffer bomb is killed by the RSS watchdog: RESOURCE_EXHAUSTED; the host lives", async () => {
    const s = await sandboxed(root, { sandbox: { maxRssMb: 256 } });
    const before = process.memoryUsage().rss;
    const outcome = await faultThenFine(s, "buffer", "bomb");
    expect(code(outcome)).toBe("RESOURCE_EXHAUSTED");
    expect(message(outcome)).toContain("over the sandbox's maxRssMb of 256");
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1_048_576);
  });
});

describe("row 12: exit without a result", () => {
  it("process.exit(0) before replying is TOOL_CRASHED, never a success; the next call works", async () => {
    const s = await sandboxed(root);
    const outcome = await faultThenFine(s, "exit");
    expect(code(outcome)).toBe("TOOL_CRASHED");
    expect(message(outcome)).toContain("ended before it returned a result (exit code 0)");
  });

  it("SIGKILL of itself is TOOL_CRASHED; the next call works", async () => {
    const s = await sandboxed(root);
    const outcome = await faultThenFine(s, "sigkill");
    expect(code(outcome)).toBe("TOOL_CRASHED");
    expect(message(outcome)).toContain("killed by SIGKILL");
  });

  it("a write tool whose process dies mid-call reports effectUnknown", async () => {
    const s = await sandboxed(root);
    const call = s.runtime.call("slow_write", { id: "x", ms: 60_000 });
    await waitFor(() => s.sandbox.pids().length > 0 && s.sandbox.stats().idle === 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const pid of s.sandbox.pids()) process.kill(pid, "SIGKILL");
    const outcome = await call;
    expect(code(outcome)).toBe("TOOL_CRASHED");
    expect(outcome.receipt.effectUnknown).toBe(true);
    expect(message(outcome)).toContain("may have done part of it (effectUnknown)");
  });
});

describe("output floods", () => {
  it.each(["stdout-flood", "stderr-flood"])(
    "%s (128 MB): the host drains and discards it; the call succeeds",
    async (kind) => {
      const s = await sandboxed(root);
      const before = process.memoryUsage().rss;
      expect(await faultThenFine(s, kind, "flood")).toMatchObject({ ok: true });
      expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1_048_576);
    },
  );
});
