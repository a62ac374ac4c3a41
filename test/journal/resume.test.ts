// Resume semantics of durable runs (docs/runtime.md, "Durable runs"), on both backends: a runtime is
// closed and a new one resumes the run with startRun({ id }), as a host restart would.
import { existsSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime, openJournal, RuntimeError, type CallOutcome, type Runtime } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import {
  BACKENDS,
  builtDurableProject,
  dropFreshSchemas,
  effects,
  everythingWritten,
  freshJournal,
} from "./support/journals.js";

let root: string;
beforeAll(async () => {
  root = await builtDurableProject();
});
afterAll(async () => {
  removeCopies();
  await dropFreshSchemas();
});

const open: Runtime[] = [];
async function runtimeOn(setting: string, extra: Record<string, unknown> = {}): Promise<Runtime> {
  const runtime = await createRuntime({ root, mode: "host", journal: setting, ...extra });
  open.push(runtime);
  return runtime;
}
/** A host restart: the runtime (and the journal it opened) closes, a new one opens the same journal. */
async function restart(before: Runtime, setting: string, extra: Record<string, unknown> = {}): Promise<Runtime> {
  await before.close();
  return runtimeOn(setting, extra);
}
afterAll(async () => {
  for (const runtime of open) await runtime.close();
});

const code = (outcome: CallOutcome) => (outcome.ok ? "ok" : outcome.error.code);

describe.each(BACKENDS)("durable runs on the %s journal", (backend) => {
  it("replays a completed call byte for byte without running it; its receipt names the lock it ran under", async () => {
    const { setting, dir } = freshJournal(backend);
    const file = join(dir, "effects.txt");
    const first = await runtimeOn(setting);
    const original = await first.startRun({ id: "conv-1" }).call("lookup", { key: "a", file });
    expect(original.ok).toBe(true);
    expect(effects(file)).toEqual(["lookup a"]);

    const second = await restart(first, setting);
    const replayed = await second.startRun({ id: "conv-1" }).call("lookup", { file, key: "a" });
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(original));
    expect(replayed.receipt.lockIntegrity).toBe(first.lockIntegrity);
    expect(effects(file)).toEqual(["lookup a"]);
    // Another run id is another run: the call runs.
    expect(code(await second.startRun({ id: "conv-2" }).call("lookup", { key: "a", file }))).toBe("ok");
    expect(effects(file)).toEqual(["lookup a", "lookup a"]);
  });

  it("matches by occurrence: identical calls replay in order, and the first new one runs", async () => {
    const { setting } = freshJournal(backend);
    const first = await runtimeOn(setting);
    const run = first.startRun({ id: "ticks" });
    const before = [
      await run.call("tick", { i: 1 }),
      await run.call("tick", { i: 1 }),
      await run.call("tick", { i: 2 }),
    ];
    const second = await restart(first, setting);
    const resumed = second.startRun({ id: "ticks" });
    const after = [
      await resumed.call("tick", { i: 1 }),
      await resumed.call("tick", { i: 1 }),
      await resumed.call("tick", { i: 2 }),
    ];
    expect(after.map((o) => JSON.stringify(o))).toEqual(before.map((o) => JSON.stringify(o)));
    expect(new Set(after.map((o) => o.receipt.callId)).size).toBe(3);
    const fresh = await resumed.call("tick", { i: 1 });
    expect(fresh.ok).toBe(true);
    expect(before.map((o) => o.receipt.callId)).not.toContain(fresh.receipt.callId);
    expect(resumed.usage().calls).toBe(4);
  });

  it("matches nested calls under their parent's key: a replayed parent runs none of its nested calls", async () => {
    const { setting, dir } = freshJournal(backend);
    const file = join(dir, "effects.txt");
    const first = await runtimeOn(setting);
    const original = await first.startRun({ id: "nested" }).call("gather", { keys: ["x", "y"], file });
    expect(original).toMatchObject({ ok: true, content: [{ key: "x" }, { key: "y" }] });
    const journal = openJournalAfter(first, setting);
    const recorded = (await (await journal).readRun("nested"))!;
    const parent = recorded.calls.find((c) => c.intent.tool === "gather")!;
    expect(recorded.calls.filter((c) => c.intent.tool === "lookup").map((c) => c.intent.parentKey)).toEqual([
      parent.intent.key,
      parent.intent.key,
    ]);
    expect(recorded.calls.every((c) => c.completion !== null)).toBe(true);
    await (await journal).close();

    const second = await runtimeOn(setting);
    expect(JSON.stringify(await second.startRun({ id: "nested" }).call("gather", { keys: ["x", "y"], file }))).toBe(
      JSON.stringify(original),
    );
    expect(effects(file)).toEqual(["lookup x", "lookup y"]);
  });

  it("rebuilds the budget and the repeat guard from the journal before the first call goes on", async () => {
    const { setting, dir } = freshJournal(backend);
    const file = join(dir, "effects.txt");
    const first = await runtimeOn(setting);
    const run = first.startRun({ id: "guarded", budget: { maxCalls: 4 } });
    expect(code(await run.call("lookup", { key: "k", file }))).toBe("ok");
    const stopped = await run.call("lookup", { key: "k", file });
    expect(code(stopped)).toBe("REPEAT_STOPPED");
    expect(code(await run.call("tick", { i: 1 }))).toBe("ok");

    const second = await restart(first, setting);
    const resumed = second.startRun({ id: "guarded", budget: { maxCalls: 4 } });
    // The two recorded lookups replay as recorded; a third (a new occurrence) is stopped: the guard was rebuilt.
    const third = await resumed.call("lookup", { key: "k", file }); // occurrence 0: replayed
    expect(code(third)).toBe("ok");
    expect(JSON.stringify(await resumed.call("lookup", { key: "k", file }))).toBe(JSON.stringify(stopped)); // occurrence 1: replayed
    expect(code(await resumed.call("lookup", { key: "k", file }))).toBe("REPEAT_STOPPED"); // occurrence 2: new, stopped
    expect(effects(file)).toEqual(["lookup k"]);
    // 3 recorded + the stopped one = 4 used: the budget is spent.
    const over = await resumed.call("tick", { i: 9 });
    expect(code(over)).toBe("BUDGET_EXCEEDED");
    expect(resumed.usage().calls).toBe(4);
  });

  it("gives an idempotent tool an idempotency key that is the same when the run is resumed (in process and in the sandbox)", async () => {
    const { setting, dir } = freshJournal(backend);
    const file = join(dir, "seats.txt");
    const first = await runtimeOn(setting);
    const run = first.startRun({ id: "seats" });
    const a = await run.call("reserve", { seat: "1A", file });
    const sandboxed = await run.call("sandboxed_key", { id: "s" });
    expect(a).toMatchObject({ ok: true, content: { seat: "1A" } });
    const key = (a as { content: { key: string } }).content.key;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(sandboxed).toMatchObject({ ok: true, content: { key: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect((sandboxed as { content: { key: string } }).content.key).not.toBe(key);
    const recorded = (await (await openJournalAfter(first, setting)).readRun("seats"))!;
    expect(recorded.calls.find((c) => c.intent.tool === "reserve")!.intent.idempotencyKey).toBe(key);
  });

  it("keeps stored results and their key in the journal: a cave_page cursor in a replayed outcome still pages", async () => {
    const { setting } = freshJournal(backend);
    const first = await runtimeOn(setting);
    const original = await first.startRun({ id: "paged" }).call("big_list", { n: 3000 });
    expect(original.ok).toBe(true);
    const text = (original as { content: string }).content;
    const cursor = /"cursor":"(pg2\.[^"]+)"/.exec(text)?.[1];
    expect(cursor, text.slice(0, 400)).toBeDefined();
    // Nothing went to the root's shared store: the journal holds the result and the key.
    expect(existsSync(join(root, ".cave-state", "recovery"))).toBe(false);

    const second = await restart(first, setting);
    const resumed = second.startRun({ id: "paged" });
    const replayed = await resumed.call("big_list", { n: 3000 });
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(original));
    const page = await resumed.call("cave_page", { cursor });
    expect(page.ok, JSON.stringify(page).slice(0, 300)).toBe(true);
    expect((page as { content: string }).content).toContain("item number");
  });

  it("never lets the invalid raw value of a failed output reach the backend", async () => {
    const fresh = freshJournal(backend);
    const { setting } = fresh;
    const sentinel = "SENTINEL-durable-5f2a91";
    const first = await runtimeOn(setting);
    const outcome = await first
      .startRun({ id: "invalid" })
      .call("bad_output", { sentinel: sentinel.split("").reverse().join("") });
    expect(code(outcome)).toBe("OUTPUT_INVALID");
    await first.close();
    const written = await everythingWritten(backend, fresh);
    expect(written).toContain("OUTPUT_INVALID");
    expect(written).not.toContain(sentinel.split("").reverse().join(""));
  });

  it("marks a run finished, and expires finished runs (with the results only they referred to) and keeps the rest", async () => {
    const { setting } = freshJournal(backend);
    const first = await runtimeOn(setting);
    const done = first.startRun({ id: "done" });
    await done.call("big_list", { n: 3000 });
    await done.finish();
    await first.startRun({ id: "open" }).call("tick", { i: 1 });
    await first.close();

    const journal = await openJournal(setting, root);
    try {
      const listed = await journal.listRuns();
      expect(listed.map((r) => [r.runId, r.finishedAt !== null, r.calls])).toEqual([
        ["done", true, 1],
        ["open", false, 1],
      ]);
      const stored = (await journal.readRun("done"))!.calls[0]!.completion!.resultSha256!;
      expect(await journal.results.get(stored)).not.toBeNull();
      expect(await journal.expire({ finishedBefore: 0 })).toEqual([]);
      expect(await journal.expire({ finishedBefore: Date.now() + 1 })).toEqual(["done"]);
      expect(await journal.readRun("done")).toBeNull();
      expect(await journal.results.get(stored)).toBeNull();
      expect((await journal.listRuns()).map((r) => r.runId)).toEqual(["open"]);
      expect(await journal.expire({ finishedBefore: Date.now() + 1, includeUnfinished: true })).toEqual(["open"]);
    } finally {
      await journal.close();
    }
  });

  it("refuses to resume under another lock, naming both, unless the caller says replay", async () => {
    const project = await builtDurableProject();
    const { setting, dir } = freshJournal(backend);
    const file = join(dir, "effects.txt");
    const first = await createRuntime({ root: project, mode: "host", journal: setting });
    const original = await first.startRun({ id: "locked" }).call("lookup", { key: "a", file });
    const oldLock = first.lockIntegrity;
    await first.close();
    // A changed tool, rebuilt: another lock.
    const source = join(project, "tools", "durable.ts");
    writeFileSync(source, readFileSync(source, "utf8").replace('description: "Tick."', 'description: "Tick once."'));
    expect((await build({ root: project })).ok).toBe(true);

    const refused = await createRuntime({ root: project, mode: "host", journal: setting });
    open.push(refused);
    expect(refused.lockIntegrity).not.toBe(oldLock);
    const outcome = await refused.startRun({ id: "locked" }).call("lookup", { key: "a", file });
    expect(code(outcome)).toBe("JOURNAL_LOCK_CHANGED");
    const message = outcome.ok ? "" : outcome.error.message;
    expect(message).toContain(oldLock);
    expect(message).toContain(refused.lockIntegrity);
    expect(message).toContain('lockChange: "replay"');
    // A new run under the new lock is fine.
    expect(code(await refused.startRun({ id: "fresh" }).call("tick", { i: 1 }))).toBe("ok");

    const replaying = refused.startRun({ id: "locked", lockChange: "replay" });
    const replayed = await replaying.call("lookup", { key: "a", file });
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(original));
    expect(replayed.receipt.lockIntegrity).toBe(oldLock);
    expect(effects(file)).toEqual(["lookup a"]);
  });
});

describe("journal settings", () => {
  it("takes the journal from CAVE_JOURNAL when createRuntime() names none, and null turns it off", async () => {
    const { setting, path } = freshJournal("sqlite");
    process.env.CAVE_JOURNAL = setting;
    try {
      const fromEnv = await createRuntime({ root, mode: "host" });
      expect(fromEnv.journal?.backend).toBe("sqlite");
      await fromEnv.close();
      expect(existsSync(path)).toBe(true);
      const off = await createRuntime({ root, mode: "host", journal: null });
      expect(off.journal).toBeUndefined();
    } finally {
      delete process.env.CAVE_JOURNAL;
    }
  });

  it("refuses an unknown backend, a malformed run id and an unknown lockChange, saying what to use", async () => {
    await expect(createRuntime({ root, mode: "host", journal: "mysql://localhost/db" })).rejects.toMatchObject({
      code: "JOURNAL_FAILED",
      message: expect.stringContaining('"sqlite:<path>"'),
    });
    const runtime = await runtimeOn(freshJournal("file").setting);
    expect(() => runtime.startRun({ id: "" })).toThrow(RuntimeError);
    expect(() => runtime.startRun({ id: "x", lockChange: "ignore" as "replay" })).toThrow(
      /lockChange must be "refuse" or "replay"/,
    );
  });
});

/** Closes the runtime and opens its journal directly (to read what it recorded). */
async function openJournalAfter(runtime: Runtime, setting: string) {
  await runtime.close();
  return openJournal(setting, root);
}
