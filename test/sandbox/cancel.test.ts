// Cancelling a sandboxed call (call option signal): the child working on it is killed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, code, sandboxed } from "./support/runtime.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

describe("cancellation of a sandboxed call", () => {
  it("a dispatched write: CANCELLED at once with effectUnknown, its process killed, the next call in a fresh one", async () => {
    const s = await sandboxed(root, { sandbox: { spare: false } });
    const run = s.runtime.startRun({ id: "cancel-sandbox" });
    const warm = await run.call("slow_write", { id: "a", ms: 0 });
    expect(warm.ok && warm.content).toEqual({ wrote: "a", served: 1 });
    expect(s.sandbox.stats()).toMatchObject({ live: 1, idle: 1 });

    const controller = new AbortController();
    const pending = run.call(
      "slow_write",
      { id: "b", ms: 60_000 },
      { signal: controller.signal, correlationId: "c-1" },
    );
    // Wait until the warm child has taken the request: leased (no longer idle), then sent the request
    // (a few microtasks later; a signal aborted in between stops the call before the child gets it).
    const until = Date.now() + 10_000;
    while (s.sandbox.stats().idle !== 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error("client cancelled"));
    const outcome = await pending;
    expect(code(outcome)).toBe("CANCELLED");
    expect(outcome.receipt).toMatchObject({
      runId: "cancel-sandbox",
      correlationId: "c-1",
      effectUnknown: true,
      outcome: "CANCELLED",
    });

    const stopped = Date.now() + 10_000;
    while (s.sandbox.stats().live !== 0 && Date.now() < stopped)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(s.sandbox.stats().live, "the cancelled call's process was stopped").toBe(0);
    const next = await run.call("slow_write", { id: "c", ms: 0 });
    expect(next.ok && next.content).toEqual({ wrote: "c", served: 1 });
  });
});
