// Leases across processes, on the PostgreSQL journal: real host processes (the crash tests' host)
// race for one run, and a host is frozen with SIGSTOP past its lease while another takes the run over.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type CallOutcome, type Runtime } from "../../runtime/index.js";
import { startHost } from "../sandbox/support/host-process.js";
import { adminPool } from "../support/postgres.js";
import { removeCopies } from "../support/projects.js";
import { builtDurableProject, dropFreshSchemas, effects, freshJournal } from "./support/journals.js";

const HOST = "test/journal/support/durable-host.ts";
type Step = { name: string; args: unknown } | { wait: true };

let root: string;
beforeAll(async () => {
  root = await builtDurableProject();
});
const runtimes: Runtime[] = [];
afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  removeCopies();
  await dropFreshSchemas();
});

async function waitFor(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
/** The outcomes a host printed, by step. */
function printed(lines: string[]): Map<number, CallOutcome> {
  const outcomes = new Map<number, CallOutcome>();
  for (const line of lines) {
    const event = JSON.parse(line) as { step?: number; outcome?: string };
    if (event.step !== undefined) outcomes.set(event.step, JSON.parse(event.outcome!) as CallOutcome);
  }
  return outcomes;
}
const code = (outcome: CallOutcome | undefined) =>
  outcome === undefined ? "none" : outcome.ok ? "ok" : outcome.error.code;

describe("leases between host processes (postgres journal)", () => {
  it("two hosts racing for one run never both drive it: one runs its calls, the other is refused and runs nothing", async () => {
    for (const round of [1, 2, 3]) {
      const journal = freshJournal("postgres");
      const setting = journal.setting.replace("lease=3", "lease=1");
      const file = join(journal.dir, "effects.txt");
      const job = (host: string) => ({
        root,
        journal: setting,
        runId: `race-${round}`,
        steps: [{ name: "append_line", args: { line: host, file } }, { wait: true }] satisfies Step[],
      });
      const [a, b] = await Promise.all([
        startHost(job("a"), journal.env, HOST),
        startHost(job("b"), journal.env, HOST),
      ]);
      try {
        await waitFor(
          () => printed(a.lines).has(0) && printed(b.lines).has(0),
          `both hosts' first outcome (a: ${a.lines.join(" ")}, b: ${b.lines.join(" ")})`,
        );
        const codes = [code(printed(a.lines).get(0)), code(printed(b.lines).get(0))].sort();
        expect(codes, `round ${round}`).toEqual(["JOURNAL_FAILED", "ok"]);
        const loser = [printed(a.lines).get(0)!, printed(b.lines).get(0)!].find((o) => !o.ok)!;
        expect(loser.ok ? "" : loser.error.message).toContain("is being driven by another host");
        expect(effects(file)).toHaveLength(1);
        const { rows } = await adminPool().query<{ n: number }>(
          `SELECT count(*)::int4 AS n FROM "${journal.path}".calls`,
        );
        expect(rows[0]!.n).toBe(1);
      } finally {
        a.child.kill("SIGKILL");
        b.child.kill("SIGKILL");
      }
    }
  });

  it("a host paused past its lease (SIGSTOP) and resumed after a takeover (SIGCONT) records nothing and runs nothing more", async () => {
    const journal = freshJournal("postgres");
    const file = join(journal.dir, "effects.txt");
    const gate = join(journal.dir, "gate");
    writeFileSync(gate, "");
    const steps: Step[] = [
      { name: "append_line", args: { line: "one", file } },
      { name: "append_line", args: { line: "two", file, gate } },
      { name: "append_line", args: { line: "four", file } },
    ];
    const paused = await startHost({ root, journal: journal.setting, runId: "paused", steps }, journal.env, HOST);
    try {
      // The host is inside its second call (the effect happened, the completion is not recorded): freeze it.
      await waitFor(() => effects(file).includes("two"), "the second call's effect");
      paused.child.kill("SIGSTOP");

      // Another host takes the run over once the frozen host's lease runs out, and goes on.
      const other = await createRuntime({ root, mode: "host", journal: journal.setting });
      runtimes.push(other);
      const run = other.startRun({ id: "paused" });
      const [one, two] = [
        await run.call("append_line", { line: "one", file }),
        await run.call("append_line", { line: "two", file, gate }),
      ];
      expect(JSON.stringify(one)).toBe(JSON.stringify(printed(paused.lines).get(0)));
      expect(code(two)).toBe("EFFECT_UNKNOWN");
      expect(code(await run.call("append_line", { line: "three", file }))).toBe("ok");
      const snapshot = async () =>
        (
          await adminPool().query(
            `SELECT key, call_id, outcome, completed_at FROM "${journal.path}".calls ORDER BY seq`,
          )
        ).rows;
      const before = await snapshot();
      expect(before).toHaveLength(3);

      // The frozen host wakes up: its call finishes, but nothing it tries to record is accepted.
      rmSync(gate);
      paused.child.kill("SIGCONT");
      await waitFor(
        () => paused.lines.some((l) => l.includes('"done"')),
        `the woken host to finish (${paused.lines.join(" ")})`,
      );
      const late = printed(paused.lines);
      expect(code(late.get(1))).toBe("JOURNAL_FAILED");
      expect(late.get(1)!.receipt.effectUnknown).toBe(true);
      expect(late.get(1)!.ok ? "" : (late.get(1) as { error: { message: string } }).error.message).toContain(
        "was taken over by another host",
      );
      expect(code(late.get(2))).toBe("JOURNAL_FAILED");
      expect(effects(file)).toEqual(["one", "two", "three"]);
      expect(await snapshot()).toEqual(before);
    } finally {
      paused.child.kill("SIGCONT");
      paused.child.kill("SIGKILL");
    }
  });
});
