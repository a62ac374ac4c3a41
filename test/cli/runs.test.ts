// cave runs list|show|expire over a real durable-run journal (SQLite, the default path under the root).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, openJournal } from "../../runtime/index.js";
import { builtDurableProject, freshJournal } from "../journal/support/journals.js";
import { removeCopies } from "../support/projects.js";
import { cave, expectRelativeOnly } from "./helpers.js";

let root: string;
let lockIntegrity: string;
let inDoubtSeen: { list: string; show: string };
beforeAll(async () => {
  root = await builtDurableProject();
  const scratch = mkdtempSync(join(tmpdir(), "cave-runs-cli-"));
  const file = join(scratch, "effects.txt");
  const gate = join(scratch, "gate");
  const runtime = await createRuntime({ root, mode: "host", journal: "sqlite" });
  lockIntegrity = runtime.lockIntegrity;
  const run = runtime.startRun({ id: "conv-7" });
  await run.call("lookup", { key: "a", file });
  await run.call("lookup", { key: "a", file });
  // A write held mid-call: another process (the CLI, in this process) sees it in doubt.
  writeFileSync(gate, "");
  const pending = run.call("append_line", { line: "charge", file, gate });
  while (!existsSync(file) || !(await import("node:fs")).readFileSync(file, "utf8").includes("charge"))
    await new Promise((r) => setTimeout(r, 20));
  inDoubtSeen = {
    list: (await cave(["runs", "list", "--root", root], root)).stdout,
    show: (await cave(["runs", "show", "conv-7", "--root", root], root)).stdout,
  };
  rmSync(gate);
  await pending;
  await runtime.startRun({ id: "conv-8" }).call("tick", { i: 1 });
  await run.finish();
  runtime.close();
});
afterAll(() => removeCopies());

describe("cave runs", () => {
  it("list: each run with its calls, the calls in doubt, whether it is finished and its locks", async () => {
    expect(inDoubtSeen.list).toMatch(
      /^conv-7 {2}open {2}3 calls, 1 in doubt {2}last \S+ {2}lock sha256-[0-9a-f]{12}…$/m,
    );
    const run = await cave(["runs", "list", "--root", root, "--json"], root);
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as {
      runs: Array<{ runId: string; calls: number; inDoubt: number; finishedAt: number | null; locks: string[] }>;
    };
    expect(listed.runs.map((r) => [r.runId, r.calls, r.inDoubt, r.finishedAt !== null, r.locks])).toEqual([
      ["conv-7", 3, 0, true, [lockIntegrity]],
      ["conv-8", 1, 0, false, [lockIntegrity]],
    ]);
    expectRelativeOnly(run, root);
  });

  it("show: each call in order with its effect, outcome, effect in doubt and lock", async () => {
    expect(inDoubtSeen.show).toContain("append_line [write]  IN DOUBT (started, never finished)  effect unknown");
    const text = await cave(["runs", "show", "conv-7", "--root", root], root);
    expect(text.stdout).toMatch(/^run conv-7: 3 calls, finished /);
    expect(text.stdout).toContain("lookup [read]  ok  lock sha256-");
    expect(text.stdout).toContain("lookup [read]  REPEAT_STOPPED  lock");
    const json = JSON.parse((await cave(["runs", "show", "conv-7", "--root", root, "--json"], root)).stdout) as {
      calls: Array<Record<string, unknown>>;
    };
    expect(
      json.calls.map((c) => [
        c.seq,
        c.tool,
        c.effect,
        c.outcome,
        c.inDoubt,
        c.effectUnknown,
        c.lockIntegrity,
        c.dispatched,
      ]),
    ).toEqual([
      [1, "lookup", "read", "ok", false, false, lockIntegrity, true],
      [2, "lookup", "read", "REPEAT_STOPPED", false, false, lockIntegrity, false],
      [3, "append_line", "write", "ok", false, false, lockIntegrity, true],
    ]);
  });

  it("show of a run the journal does not hold: CAVE9222; no journal at all: CAVE9220, and none is created", async () => {
    const missing = await cave(["runs", "show", "nope", "--root", root], root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("CAVE9222");
    expect(missing.stderr).toContain("cave runs list");
    const empty = mkdtempSync(join(tmpdir(), "cave-runs-empty-"));
    const none = await cave(["runs", "list", "--root", empty], empty);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('CAVE9220: no journal at "sqlite" (.cave-state/journal.db under the root)');
    expect(existsSync(join(empty, ".cave-state"))).toBe(false);
    // A file journal another live process holds (this one): CAVE9221 naming the holder.
    const { setting } = freshJournal("file");
    const held = await openJournal(setting, root);
    await held.openRun("x", 1);
    const locked = await cave(["runs", "list", "--root", root, "--journal", setting], root);
    await held.close();
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(
      `CAVE9221: the journal file is in use by process ${process.pid} (a file journal serves one process`,
    );
    expect((await cave(["runs", "list", "--root", root, "--journal", setting], root)).stdout).toMatch(
      /^x {2}open {2}0 calls/,
    );
    const bad = await cave(["runs", "expire", "--root", root], root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("expire needs --older-than DURATION");
  });

  it("expire: finished runs older than the cutoff go, open ones stay unless --include-unfinished", async () => {
    await new Promise((r) => setTimeout(r, 5));
    expect((await cave(["runs", "expire", "--older-than", "1h", "--root", root], root)).stdout).toBe(
      "cave runs: expired 0 runs\n",
    );
    expect((await cave(["runs", "expire", "--older-than", "1ms", "--root", root], root)).stdout).toBe(
      "cave runs: expired 1 run: conv-7\n",
    );
    expect(
      JSON.parse(
        (await cave(["runs", "expire", "--older-than", "1ms", "--include-unfinished", "--root", root, "--json"], root))
          .stdout,
      ),
    ).toEqual({ ok: true, expired: ["conv-8"] });
    expect((await cave(["runs", "list", "--root", root], root)).stdout).toBe("cave runs: the journal holds no runs\n");
  });
});
