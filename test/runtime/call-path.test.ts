import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { nextCallId } from "../../runtime/run/call-id.js";
import { DeadlineQueue, type Deadline } from "../../runtime/run/deadline-queue.js";
import { monotonicMs } from "../../runtime/run/clock.js";
import { createRuntime, MemoryReceiptSink } from "../../runtime/index.js";
import { snapshotJson } from "../../runtime/pipeline/json-data.js";
import { canonicalJson, hashJson } from "../../src/contract/hash.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { builtProject, freshProbe, probe } from "./helpers.js";
import { sealLock } from "../../src/contract/lock-seal.js";

// The per-call fast paths (one canonical serialisation per value, call ids, the shared deadline
// timer, results that enter context without counting) must give what the general paths give.

let root: string;
const copies: string[] = [];
beforeAll(async () => {
  root = await builtProject("pipeline");
});
afterAll(() => {
  removeCopies();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  freshProbe();
});

describe("snapshotJson's canonical text", () => {
  it.each<[unknown, string]>([
    [{ region: "EU", days: 14 }, "keys out of order"],
    [{ b: { d: [{ z: 1, a: 2 }, 3], c: null }, a: [true, "x"] }, "nested objects out of order"],
    [{ 10: "a", 9: "b", x: 1 }, "array-index keys, which JavaScript orders numerically"],
    [{ 1: "a", 2: "b" }, "array-index keys already in code-unit order"],
    [{ é: 1, e: 2, "": 3, "\u{1F600}": 4, E: 5 }, "non-ASCII and empty keys"],
    [Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, i])), "an object with many keys"],
    [
      [
        { b: 1, a: 2 },
        { a: 1, b: 2 },
      ],
      "an array of objects",
    ],
    [{ a: -0, b: 1e21, c: 1e-7, d: 0.1 }, "number spellings"],
  ])("is canonicalJson's, and the copy keeps the caller's key order: %j (%s)", (value) => {
    const snapshot = snapshotJson(value, 1_000_000);
    expect(snapshot.ok).toBe(true);
    if (!snapshot.ok) return;
    expect(snapshot.text).toBe(canonicalJson(value));
    expect(snapshot.sha256).toBe(hashJson(value));
    expect(Object.keys(snapshot.value as object)).toEqual(Object.keys(value as object));
    expect(JSON.stringify(snapshot.value)).toBe(JSON.stringify(value));
  });

  it("shares nothing with the caller's value, also where keys were out of order", () => {
    const inner = { y: 1, x: 2 };
    const value = { b: inner, a: [inner] };
    const snapshot = snapshotJson(value, 1_000);
    if (!snapshot.ok) throw new Error("not JSON data");
    inner.y = 99;
    expect(snapshot.value).toEqual({ b: { y: 1, x: 2 }, a: [{ y: 1, x: 2 }] });
    expect(snapshot.text).toBe('{"a":[{"x":2,"y":1}],"b":{"x":2,"y":1}}');
  });

  it("finds a cycle at its first repeat however deep it is", () => {
    const top: Record<string, unknown> = {};
    let at = top;
    for (let i = 0; i < 40; i++) at = (at.n = {}) as Record<string, unknown>;
    at.back = top.n;
    const result = snapshotJson(top, 1_000_000);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: "not-data", what: "a cycle (the value contains itself)" },
    });
    expect(result.ok === false && result.problem.kind === "not-data" && result.problem.path).toBe(
      `${"/n".repeat(40)}/back`,
    );
  });
});

describe("call ids", () => {
  it("are UUID-shaped and distinct", () => {
    const ids = Array.from({ length: 5_000 }, nextCallId);
    for (const id of ids.slice(0, 300))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("differ for every receipt, nested calls included", async () => {
    const sink = new MemoryReceiptSink();
    const runtime = await createRuntime({ root, mode: "host", receipts: sink });
    await runtime.call("composite", {
      calls: [
        { name: "lookup", args: { region: "EU" } },
        { name: "echo", args: { x: 1 } },
      ],
    });
    await runtime.call("lookup", { region: "US" });
    const ids = sink.receipts.map((r) => r.callId);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });
});

describe("the shared deadline timer", () => {
  function deadline(at: number, log: string[], name: string): Deadline {
    return { at, pending: true, expire: () => void log.push(name) };
  }

  it("expires due deadlines in order, skips settled ones, and holds the process only while one is pending", async () => {
    const queue = new DeadlineQueue();
    const log: string[] = [];
    expect(queue.holdsProcess).toBe(false);
    const now = monotonicMs();
    const late = deadline(now + 200, log, "late");
    const early = deadline(now + 20, log, "early");
    const settled = deadline(now + 10, log, "settled");
    queue.add(late);
    queue.add(early);
    queue.add(settled);
    expect(queue.holdsProcess).toBe(true);
    queue.settle(settled);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(log).toEqual(["early"]);
    expect(queue.holdsProcess).toBe(true);
    queue.settle(late);
    expect(queue.holdsProcess).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(log).toEqual(["early"]);
  });

  it("times out a hanging call while quick calls before and after it succeed", async () => {
    const runtime = await createRuntime({ root, mode: "host" });
    const hanging = runtime.call("hang", {});
    const quick = await Promise.all([runtime.call("lookup", { region: "EU" }), runtime.call("echo", { n: 1 })]);
    expect(quick.map((o) => o.ok)).toEqual([true, true]);
    const started = performance.now();
    const outcome = await hanging;
    expect(outcome.ok === false && outcome.error.code).toBe("TIMEOUT");
    expect(outcome.receipt.durationMs).toBeGreaterThanOrEqual(299);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(probe().aborted.hang).toBe(true);
    expect((await runtime.call("lookup", { region: "US" })).ok).toBe(true);
  });
});

describe("results that enter context without counting", () => {
  let plans: string;
  beforeAll(async () => {
    plans = copyProject("test/results/projects/plans");
    const result = await build({ root: plans });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  }, 120_000);

  it("still refuse a plan pinned to another tokenizer, however small the result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cave-call-path-"));
    copies.push(dir);
    cpSync(plans, dir, { recursive: true, filter: (source) => !source.includes("node_modules") });
    const lock = JSON.parse(readFileSync(join(dir, "cave.lock"), "utf8")) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    lock.tools.list_orders.result.plan.tokenizer = { id: "o200k_base", version: "0.0.1" };
    const { integrity: _old, toolHashes: _hashes, ...body } = lock;
    writeFileSync(join(dir, "cave.lock"), JSON.stringify(sealLock(body as never), null, 2));
    const runtime = await createRuntime({ root: dir, mode: "host" });
    const outcome = await runtime.call("list_orders", { count: 1 });
    expect(outcome.ok === false && outcome.error.code).toBe("TOKENIZER_MISMATCH");
  });
});
