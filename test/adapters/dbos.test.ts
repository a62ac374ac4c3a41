// cave/dbos: a DBOS workflow whose cave calls are DBOS steps, killed mid-run (SIGKILL while a write
// is in flight) and recovered by DBOS in another process. DBOS's system database and cave's journal
// share one PostgreSQL database (the test server's, a database of its own).
import { spawn } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type CallOutcome } from "../../runtime/index.js";
import { workflowRun } from "../../adapters/dbos/index.js";
import { builtDurableProject, effects } from "../journal/support/journals.js";
import { adminPool, freshDatabase } from "../support/postgres.js";
import { removeCopies } from "../support/projects.js";
import { REPO_ROOT } from "../support/golden.js";

const HOST = join(REPO_ROOT, "test/adapters/dbos/support/dbos-host.mjs");
const URL_ENV = "CAVE_DBOS_TEST_URL";

let root: string;
let db: { url: string; name: string };
beforeAll(async () => {
  root = await builtDurableProject();
  db = await freshDatabase();
});
afterAll(async () => {
  removeCopies();
  await adminPool().query(`DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`);
});

interface Host {
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  kill(): void;
  stderr(): string;
}
function startDbosHost(job: Record<string, unknown>): Host {
  const child = spawn(process.execPath, [HOST, JSON.stringify(job)], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, [URL_ENV]: db.url },
  });
  const lines: string[] = [];
  let buffered = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    // DBOS may log to stdout; the host's own events are the JSON lines.
    lines.push(...parts.filter((line) => line.startsWith("{")));
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { lines, exited, kill: () => child.kill("SIGKILL"), stderr: () => stderr };
}
async function waitFor(condition: () => boolean, what: () => string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const events = (host: Host) =>
  host.lines.map(
    (line) => JSON.parse(line) as { step?: number; outcome?: string; result?: string[]; steps?: string[]; done?: true },
  );
const outcomesOf = (host: Host) =>
  new Map(
    events(host)
      .filter((e) => e.step !== undefined)
      .map((e) => [e.step!, e.outcome!]),
  );
const code = (text: string | undefined) => {
  const outcome = JSON.parse(text ?? "null") as CallOutcome | null;
  return outcome === null ? "none" : outcome.ok ? "ok" : outcome.error.code;
};

describe("cave/dbos: cave calls as DBOS steps", () => {
  it("a workflow killed mid-write and recovered by DBOS in another process replays the completed calls, answers the in-doubt write EFFECT_UNKNOWN, and runs the rest once", async () => {
    const dir = join(root, "dbos-run");
    const file = join(root, "effects.txt");
    const gate = join(root, "gate");
    writeFileSync(gate, "");
    const job = {
      root,
      journal: `postgres:${URL_ENV}?schema=cave&lease=2`,
      dbUrl: db.url,
      workflowID: "refund-o-17",
      file,
      gate,
      dir,
    };

    const first = startDbosHost({ ...job, mode: "start" });
    try {
      // The third call's effect happened and the call holds on the gate: the process dies here.
      await waitFor(
        () => effects(file).includes("send email"),
        () => `the third call's effect (stdout: ${first.lines.join(" ")}; stderr: ${first.stderr().slice(-1500)})`,
      );
    } finally {
      first.kill();
    }
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    const before = outcomesOf(first);
    expect([code(before.get(0)), code(before.get(1))]).toEqual(["ok", "ok"]);
    expect(before.has(2)).toBe(false);

    rmSync(gate);
    const second = startDbosHost({ ...job, mode: "recover" });
    await waitFor(
      () => events(second).some((e) => e.done),
      () =>
        `the recovered workflow to finish (stdout: ${second.lines.join(" ")}; stderr: ${second.stderr().slice(-1500)})`,
      120_000,
    );
    expect(await second.exited).toEqual({ code: 0, signal: null });

    const after = outcomesOf(second);
    // The completed steps come back exactly as the first process saw them; nothing of theirs ran again.
    expect(after.get(0)).toBe(before.get(0));
    expect(after.get(1)).toBe(before.get(1));
    expect(code(after.get(2))).toBe("EFFECT_UNKNOWN");
    expect((JSON.parse(after.get(2)!) as CallOutcome).receipt.effectUnknown).toBe(true);
    expect(code(after.get(3))).toBe("ok");
    expect(effects(file)).toEqual(["charge card", "lookup order", "send email", "close ticket"]);

    const finished = events(second).find((e) => e.result !== undefined)!;
    expect(finished.result).toEqual(["ok", "ok", "EFFECT_UNKNOWN", "ok"]);
    // Each cave call was one DBOS step, named after its tool.
    expect(finished.steps).toEqual(["cave:append_line", "cave:lookup", "cave:append_line", "cave:append_line"]);
    // The cave run is the workflow's, in the same database, finished, with each call recorded once.
    process.env[URL_ENV] = db.url;
    const runtime = await createRuntime({ root, mode: "host", journal: `postgres:${URL_ENV}?schema=cave` });
    try {
      const run = (await runtime.journal!.readRun("refund-o-17"))!;
      expect(run.finishedAt).not.toBeNull();
      expect(
        run.calls.map((c) => [
          c.intent.tool,
          c.completion === null ? "in doubt" : (JSON.parse(c.completion.outcome) as CallOutcome).ok,
        ]),
      ).toEqual([
        ["append_line", true],
        ["lookup", true],
        ["append_line", false],
        ["append_line", true],
      ]);
    } finally {
      await runtime.close();
      delete process.env[URL_ENV];
    }
  });

  it("refuses a runtime without a journal, a call outside a workflow, and unknown options, saying what to do", async () => {
    const runtime = await createRuntime({ root, mode: "host", journal: null });
    try {
      expect(() => workflowRun(runtime)).toThrow(
        /the runtime has no journal, so a recovered workflow could not resume its calls; create it with createRuntime\(\{ journal/,
      );
    } finally {
      await runtime.close();
    }
    process.env[URL_ENV] = db.url;
    const journaled = await createRuntime({ root, mode: "host", journal: `postgres:${URL_ENV}?schema=cave_refusals` });
    try {
      expect(() => workflowRun(journaled)).toThrow(/call it inside a DBOS workflow function/);
      expect(() => workflowRun(journaled, { retries: 3 } as never)).toThrow(
        /unknown option "retries"; known options: budget, lockChange/,
      );
      // replayOnly never runs a call the journal does not hold complete, and records nothing.
      const run = journaled.startRun({ id: "replay-only" });
      const refused = await run.call("tick", { i: 1 }, { replayOnly: true });
      expect(code(JSON.stringify(refused))).toBe("JOURNAL_FAILED");
      expect(refused.ok ? "" : refused.error.message).toContain("holds no completion for it, so nothing was run");
      expect((await journaled.journal!.readRun("replay-only"))!.calls).toEqual([]);
    } finally {
      await journaled.close();
      delete process.env[URL_ENV];
    }
    const plain = await createRuntime({ root, mode: "host", journal: null });
    try {
      await expect(plain.call("tick", { i: 1 }, { replayOnly: true })).rejects.toMatchObject({
        code: "OPTIONS_INVALID",
        message: expect.stringContaining("this runtime has none"),
      });
    } finally {
      await plain.close();
    }
  });
});
