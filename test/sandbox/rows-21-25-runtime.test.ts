// Adversarial table rows 21-25 (../shared/sandbox.md), through the runtime: the effect gate, the
// repeat guard, lock tampering, a bundle swapped after verification, and journal replay.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, FileJournal } from "../../runtime/index.js";
import { checkDeployment } from "../../runtime/lock/deploy-check.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { removeCopies } from "../support/projects.js";
import { startHost } from "./support/host-process.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, sandboxed, code } from "./support/runtime.js";
import { waitFor } from "./support/wait-for.js";
import { sealLock } from "../../src/contract/lock-seal.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

describe("row 21: write in the fixture sandbox", () => {
  it("a declared write tool is EFFECT_BLOCKED before any child starts", async () => {
    const { runtime, sandbox } = await sandboxed(root, { mode: "fixture" });
    const outcome = await runtime.call("write_record", { id: "r21" });
    expect(code(outcome)).toBe("EFFECT_BLOCKED");
    expect(sandbox.stats().spawned).toBe(0);
  });

  it("a tool that lies (declares read, writes a file) gets ERR_ACCESS_DENIED, and no file is created", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cave-lie-"));
    const { runtime } = await sandboxed(root, { mode: "fixture" });
    const outcome = await runtime.call("lying_writer", { path: join(dir, "lie.txt") });
    expect(code(outcome)).toBe("SANDBOX_DENIED");
    expect(outcome.ok ? "" : outcome.error.message).toContain("ERR_ACCESS_DENIED");
    expect(existsSync(join(dir, "lie.txt"))).toBe(false);
  });
});

describe("row 22: repeated identical calls", () => {
  it("the second identical call (keys permuted) is REPEAT_STOPPED; different arguments run; allowRepeat is honoured", async () => {
    const { runtime, sandbox } = await sandboxed(root);
    const run = runtime.startRun();
    expect(await run.call("echo", { a: 1, b: 2 })).toMatchObject({ ok: true, content: { a: 1, b: 2 } });
    const again = await run.call("echo", { b: 2, a: 1 });
    expect(code(again)).toBe("REPEAT_STOPPED");
    expect(again.ok ? "" : again.error.message).toContain("allowRepeat: true");
    expect(await run.call("echo", { a: 1, b: 3 })).toMatchObject({ ok: true, content: { a: 1, b: 3 } });
    // add is locked with allowRepeat: true: the same call runs again, in the same warm child.
    const first = await run.call("add", { a: 5, b: 5 });
    const second = await run.call("add", { b: 5, a: 5 });
    expect(first).toMatchObject({ ok: true, content: { sum: 10, served: 1 } });
    expect(second).toMatchObject({ ok: true, content: { sum: 10, served: 2 } });
    expect(sandbox.stats().spawned).toBeGreaterThanOrEqual(2);
  });
});

describe("row 23: lock tampering", () => {
  it("one byte changed in a bundle: the deploy check names the file and its tool, and the call is LOCK_MISMATCH naming the tool", async () => {
    const project = await builtProject("sandbox");
    const bundle = join(project, ".cave/bundles/tools/basic.mjs");
    const bytes = readFileSync(bundle);
    bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x20 ? 0x09 : 0x20;
    writeFileSync(bundle, bytes);
    const problems = await checkDeployment(project);
    expect(problems).toContainEqual(
      expect.objectContaining({ code: "CAVE9007", message: expect.stringContaining(".cave/bundles/tools/basic.mjs") }),
    );
    const { runtime } = await sandboxed(project);
    const outcome = await runtime.call("add", { a: 1, b: 2 });
    expect(code(outcome)).toBe("LOCK_MISMATCH");
    expect(outcome.ok ? "" : outcome.error.message).toContain(
      'tool "add": its staged bundle .cave/bundles/tools/basic.mjs does not match the lock',
    );
  });

  it("an extra bundle the lock does not pin: the deploy check names it", async () => {
    const project = await builtProject("sandbox");
    writeFileSync(join(project, ".cave/bundles/tools/extra.mjs"), "export const x = 1;\n");
    expect(await checkDeployment(project)).toContainEqual(
      expect.objectContaining({ code: "CAVE9008", message: expect.stringContaining(".cave/bundles/tools/extra.mjs") }),
    );
  });

  it("a tool missing from the lock: the deploy check names it, and the runtime refuses every tool that names it", async () => {
    const project = await builtProject("sandbox");
    const lockPath = join(project, "cave.lock");
    const lock = JSON.parse(readFileSync(lockPath, "utf8")) as { integrity: string; tools: Record<string, unknown> };
    delete lock.tools.add;
    const { integrity: _old, toolHashes: _hashes, ...body } = lock as typeof lock & { toolHashes: unknown };
    writeFileSync(lockPath, `${JSON.stringify(sealLock(body as never), null, 2)}\n`);
    expect(await checkDeployment(project)).toContainEqual(
      expect.objectContaining({ code: "CAVE9009", message: expect.stringContaining('names tool "add"') }),
    );
    // Tool entries are checked on first read (docs/runtime.md): the deploy-time check reads them all.
    const runtime = await createRuntime({ root: project, mode: "host" });
    try {
      await expect(runtime.verifyAll()).rejects.toMatchObject({
        code: "LOCK_INVALID",
        message: expect.stringContaining('("add" is not in the lock)'),
      });
      const composite = await runtime.call("composite", { calls: [] });
      expect(composite).toMatchObject({
        ok: false,
        error: {
          code: "LOCK_INVALID",
          message: expect.stringContaining(
            'tools.composite.nestedTools must be names of locked tools ("add" is not in the lock)',
          ),
        },
      });
      expect(await runtime.call("add", { a: 1, b: 2 })).toMatchObject({ ok: false, error: { code: "UNKNOWN_TOOL" } });
    } finally {
      runtime.close();
    }
  });

  it("the lock's integrity hash edited: the deploy check and createRuntime refuse it", async () => {
    const project = await builtProject("sandbox");
    const lockPath = join(project, "cave.lock");
    writeFileSync(
      lockPath,
      readFileSync(lockPath, "utf8").replace(/"integrity": "sha256-[0-9a-f]{8}/, '"integrity": "sha256-00000000'),
    );
    expect(await checkDeployment(project)).toContainEqual(expect.objectContaining({ code: "CAVE9005" }));
    await expect(createRuntime({ root: project, mode: "host" })).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      message: expect.stringContaining("cave.lock does not match its integrity hash"),
    });
  });

  it("a whitespace-only change follows the documented rule: the integrity is over the canonical form, so the lock still loads and runs", async () => {
    const project = await builtProject("sandbox");
    const lockPath = join(project, "cave.lock");
    writeFileSync(lockPath, `${JSON.stringify(JSON.parse(readFileSync(lockPath, "utf8")))}\n\n`);
    expect(await checkDeployment(project)).toEqual([]);
    const { runtime } = await sandboxed(project);
    expect(await runtime.call("add", { a: 2, b: 2 })).toMatchObject({ ok: true, content: { sum: 4 } });
  });
});

describe("row 24: the bundle swapped after verification", () => {
  /** The project with an evil copy of basic.mjs beside it: `add` answers 666. */
  async function withEvilTwin(): Promise<{ project: string; bundle: string; good: Buffer; evil: Buffer }> {
    const project = await builtProject("sandbox");
    const bundle = join(project, ".cave/bundles/tools/basic.mjs");
    const good = readFileSync(bundle);
    const text = good.toString("utf8");
    expect(text).toContain("sum: a + b");
    return { project, bundle, good, evil: Buffer.from(text.replace("sum: a + b", "sum: 666")) };
  }

  it("a child that verified the bytes keeps running them; a new child refuses the swapped file (LOCK_MISMATCH); 666 is never evaluated", async () => {
    const { project, bundle, evil } = await withEvilTwin();
    const warm = await sandboxed(project, { sandbox: { spare: false } });
    const run = warm.runtime.startRun();
    expect(await run.call("add", { a: 1, b: 2 })).toMatchObject({ ok: true, content: { sum: 3 } });
    writeFileSync(bundle, evil);
    expect(await run.call("add", { a: 2, b: 2 })).toMatchObject({ ok: true, content: { sum: 4 } });
    const fresh = await sandboxed(project);
    const refused = await fresh.runtime.call("add", { a: 1, b: 1 });
    expect(code(refused)).toBe("LOCK_MISMATCH");
    expect(refused.ok ? "" : refused.error.message).toMatch(
      /tool "add": its staged bundle \.cave\/bundles\/tools\/basic\.mjs does not match the lock \(the lock says sha256-[0-9a-f]{64}, the file hashes to sha256-[0-9a-f]{64}\)/,
    );
  });

  it("while another thread swaps the file back and forth, every child either runs the verified bytes or refuses", async () => {
    const { project, bundle, good, evil } = await withEvilTwin();
    const goodPath = `${bundle}.good`;
    const evilPath = `${bundle}.evil`;
    writeFileSync(goodPath, good);
    writeFileSync(evilPath, evil);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    // rename() replaces the file atomically: a reader sees either version whole, as an attacker would arrange.
    const swapper = new Worker(
      `const { workerData } = require("node:worker_threads"); const fs = require("node:fs");
       const { flag, bundle, goodPath, evilPath } = workerData; let n = 0;
       while (Atomics.load(flag, 0) === 0) { fs.copyFileSync(n++ % 2 ? goodPath : evilPath, bundle + ".next"); fs.renameSync(bundle + ".next", bundle); }`,
      { eval: true, workerData: { flag, bundle, goodPath, evilPath } },
    );
    const { runtime } = await sandboxed(project, { sandbox: { spare: false, recycleAfterCalls: 1 } });
    const seen: string[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        const outcome = await runtime.startRun().call("add", { a: i, b: 1 });
        seen.push(
          outcome.ok
            ? `sum ${(outcome.content as { sum: number }).sum === i + 1 ? "verified" : (outcome.content as { sum: number }).sum}`
            : outcome.error.code,
        );
      }
    } finally {
      Atomics.store(flag, 0, 1);
      await swapper.terminate();
      renameSync(goodPath, bundle);
    }
    expect(
      seen.every((s) => s === "sum verified" || s === "LOCK_MISMATCH"),
      seen.join(", "),
    ).toBe(true);
    expect(seen.join()).not.toContain("666");
  });
});

describe("row 25: journal replay and unknown effects", () => {
  it("a completed call is replayed from the journal without running the tool", async () => {
    const journal = `file:${join(mkdtempSync(join(tmpdir(), "cave-journal-")), "journal.jsonl")}`;
    const first = await createRuntime({ root, mode: "host", journal });
    const original = await first.startRun({ id: "row-25" }).call("counter", { label: "once" });
    expect(original).toMatchObject({ ok: true, content: { label: "once", served: 1 } });
    first.close();

    const sandbox = createSandboxDispatcher();
    const runtime = await createRuntime({ root, mode: "host", journal, dispatchers: { required: sandbox } });
    try {
      const replayed = await runtime.startRun({ id: "row-25" }).call("counter", { label: "once" });
      expect(JSON.stringify(replayed)).toBe(JSON.stringify(original));
      expect(sandbox.stats().spawned).toBe(0);
      // A different run with the same call does run it.
      expect(await runtime.startRun({ id: "row-25-other" }).call("counter", { label: "once" })).toMatchObject({
        ok: true,
        content: { served: 1 },
      });
      expect(sandbox.stats().spawned).toBeGreaterThan(0);
    } finally {
      sandbox.close();
      runtime.close();
    }
  });

  it("a write whose host crashed between its start and its completion record surfaces EFFECT_UNKNOWN, not a silent re-run", async () => {
    const journalPath = join(mkdtempSync(join(tmpdir(), "cave-journal-")), "journal.jsonl");
    const host = await startHost({
      root,
      journal: `file:${journalPath}`,
      runId: "row-25-crash",
      calls: [{ name: "slow_write", args: { id: "w1", ms: 60_000 } }],
    });
    await waitFor(() => existsSync(journalPath) && readFileSync(journalPath, "utf8").includes('"t":"intent"'), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    host.child.kill("SIGKILL");
    expect(await host.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(readFileSync(journalPath, "utf8")).not.toContain('"t":"completion"');

    const sandbox = createSandboxDispatcher();
    try {
      const runtime = await createRuntime({
        root,
        mode: "host",
        journal: `file:${journalPath}`,
        dispatchers: { required: sandbox },
      });
      const outcome = await runtime.startRun({ id: "row-25-crash" }).call("slow_write", { id: "w1", ms: 60_000 });
      expect(code(outcome)).toBe("EFFECT_UNKNOWN");
      expect(outcome.receipt).toMatchObject({ tool: "slow_write", outcome: "EFFECT_UNKNOWN", effectUnknown: true });
      expect(outcome.ok ? "" : outcome.error.message).toContain("it was not run again");
      expect(sandbox.stats().spawned).toBe(0);
      runtime.close();
      // Recorded: asking again (even after another restart) gives the same answer, byte for byte.
      const again = await createRuntime({
        root,
        mode: "host",
        journal: `file:${journalPath}`,
        dispatchers: { required: sandbox },
      });
      expect(
        JSON.stringify(await again.startRun({ id: "row-25-crash" }).call("slow_write", { id: "w1", ms: 60_000 })),
      ).toBe(JSON.stringify(outcome));
      again.close();
      expect(sandbox.stats().spawned).toBe(0);
    } finally {
      sandbox.close();
    }
  });

  it("a read-only call cut off the same way is simply run again", async () => {
    const journalPath = join(mkdtempSync(join(tmpdir(), "cave-journal-")), "journal.jsonl");
    const host = await startHost({
      root,
      journal: `file:${journalPath}`,
      runId: "row-25-read",
      calls: [{ name: "fault", args: { kind: "pending" } }],
    });
    await waitFor(() => existsSync(journalPath) && readFileSync(journalPath, "utf8").includes('"t":"intent"'), 20_000);
    host.child.kill("SIGKILL");
    await host.exited;
    const sandbox = createSandboxDispatcher();
    const runtime = await createRuntime({
      root,
      mode: "host",
      journal: `file:${journalPath}`,
      dispatchers: { required: sandbox },
    });
    try {
      const outcome = await runtime.startRun({ id: "row-25-read" }).call("fault", { kind: "pending" });
      expect(code(outcome)).toBe("TIMEOUT");
      expect(sandbox.stats().spawned).toBeGreaterThan(0);
    } finally {
      sandbox.close();
      runtime.close();
    }
  });

  it("a line torn by a crash mid-write is cut off when the journal is opened, and never counts as recorded", async () => {
    const journalPath = join(mkdtempSync(join(tmpdir(), "cave-journal-")), "journal.jsonl");
    const journal = FileJournal.open(journalPath);
    await journal.openRun("r", 1);
    await journal.close();
    const whole = readFileSync(journalPath, "utf8");
    appendFileSync(journalPath, '{"t":"intent","runId":"r","key":"k","rece');
    const reopened = FileJournal.open(journalPath);
    expect(await reopened.readRun("r")).toEqual({ runId: "r", createdAt: 1, finishedAt: null, calls: [] });
    await reopened.close();
    expect(readFileSync(journalPath, "utf8")).toBe(whole);
  });
});
