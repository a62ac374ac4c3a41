// Crash tests: a real host process runs a durable run and is killed with SIGKILL at each point
// (before an intent, between intent and completion, after completion, during a sandboxed call); a new
// runtime in this process resumes the run with startRun({ id }) and makes the same calls. On both
// backends: nothing recorded is lost, no write is silently re-run, each replayed outcome equals the
// one the host returned byte for byte, and the repeat guard and the budget hold across the crash.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type CallOutcome, type Runtime } from "../../runtime/index.js";
import { startHost } from "../sandbox/support/host-process.js";
import { removeCopies } from "../support/projects.js";
import {
  BACKENDS,
  builtDurableProject,
  dropFreshSchemas,
  effects,
  freshJournal,
  recordedCalls,
  type Backend,
} from "./support/journals.js";

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

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: () => Promise<string>,
  ms = 30_000,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${await what()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs `steps` in a host process, waits for `killWhen`, kills it with SIGKILL; returns the outcomes it printed (JSON text, by step). */
type Journal = ReturnType<typeof freshJournal>;
async function crashHost(
  backend: Backend,
  journal: Journal,
  runId: string,
  steps: Step[],
  killWhen: (lines: string[]) => boolean | Promise<boolean>,
  maxCalls?: number,
): Promise<Map<number, string>> {
  const host = await startHost(
    { root, journal: journal.setting, runId, steps, ...(maxCalls === undefined ? {} : { maxCalls }) },
    journal.env,
    HOST,
  );
  try {
    await waitFor(
      async () => (await killWhen(host.lines)) || host.lines.some((l) => l.includes('"done"')),
      async () => `the crash point (recorded: ${JSON.stringify(await recordedCalls(backend, journal.path))})`,
    );
    expect(
      host.lines.some((l) => l.includes('"done"')),
      "the host must be killed before it finishes",
    ).toBe(false);
  } finally {
    host.child.kill("SIGKILL");
  }
  expect(await host.exited).toEqual({ code: null, signal: "SIGKILL" });
  const printed = new Map<number, string>();
  for (const line of host.lines) {
    const event = JSON.parse(line) as { step?: number; outcome?: string };
    if (event.step !== undefined) printed.set(event.step, event.outcome!);
  }
  return printed;
}

/** The same run resumed in this process: the same calls, in order (wait steps skipped). */
async function resume(setting: string, runId: string, steps: Step[], maxCalls?: number): Promise<CallOutcome[]> {
  const runtime = await createRuntime({ root, mode: "host", journal: setting });
  runtimes.push(runtime);
  const run = runtime.startRun({ id: runId, ...(maxCalls === undefined ? {} : { budget: { maxCalls } }) });
  const outcomes: CallOutcome[] = [];
  for (const step of steps) if (!("wait" in step)) outcomes.push(await run.call(step.name, step.args));
  await runtime.close();
  return outcomes;
}

const code = (outcome: CallOutcome) => (outcome.ok ? "ok" : outcome.error.code);
const waiting = (lines: string[]) => lines.some((l) => l.startsWith('{"waiting"'));

describe.each(BACKENDS)("crash tests on the %s journal", (backend) => {
  it("killed before an intent: the completed call replays byte for byte, the next one runs once", async () => {
    const journal = freshJournal(backend);
    const { setting, path, dir } = journal;
    const file = join(dir, "effects.txt");
    const steps: Step[] = [
      { name: "append_line", args: { line: "one", file } },
      { wait: true },
      { name: "append_line", args: { line: "two", file } },
    ];
    const printed = await crashHost(backend, journal, "before-intent", steps, waiting);
    expect(await recordedCalls(backend, path)).toEqual([{ tool: "append_line", complete: true }]);
    const [one, two] = await resume(setting, "before-intent", steps);
    expect(JSON.stringify(one)).toBe(printed.get(0));
    expect(code(two!)).toBe("ok");
    expect(effects(file)).toEqual(["one", "two"]);
  });

  it("killed between intent and completion: a write is answered EFFECT_UNKNOWN and not run again; the read before it replays", async () => {
    const journal = freshJournal(backend);
    const { setting, path, dir } = journal;
    const file = join(dir, "effects.txt");
    const gate = join(dir, "gate");
    writeFileSync(gate, "");
    const steps: Step[] = [
      { name: "lookup", args: { key: "a", file } },
      { name: "append_line", args: { line: "charge card", file, gate } },
    ];
    const printed = await crashHost(backend, journal, "mid-write", steps, () => effects(file).includes("charge card"));
    expect(await recordedCalls(backend, path)).toEqual([
      { tool: "lookup", complete: true },
      { tool: "append_line", complete: false },
    ]);
    rmSync(gate);
    const [lookup, write] = await resume(setting, "mid-write", steps);
    expect(JSON.stringify(lookup)).toBe(printed.get(0));
    expect(code(write!)).toBe("EFFECT_UNKNOWN");
    expect(write!.receipt.effectUnknown).toBe(true);
    expect(effects(file)).toEqual(["lookup a", "charge card"]);
    // Recorded as its outcome: another restart answers the same, byte for byte.
    const [, again] = await resume(setting, "mid-write", steps);
    expect(JSON.stringify(again)).toBe(JSON.stringify(write));
    expect(effects(file)).toEqual(["lookup a", "charge card"]);
  });

  it("killed between intent and completion: a read is run again, an idempotent tool again with the same idempotency key", async () => {
    const journal = freshJournal(backend);
    const { setting, dir } = journal;
    const file = join(dir, "effects.txt");
    const seats = join(dir, "seats.txt");
    const gate = join(dir, "gate");
    writeFileSync(gate, "");
    const steps: Step[] = [{ name: "reserve", args: { seat: "7C", file: seats, gate } }];
    await crashHost(backend, journal, "mid-idempotent", steps, () => effects(seats).length === 2);
    const [key] = /[0-9a-f]{32}/.exec(effects(seats)[0]!)!;
    rmSync(gate);
    const [reserved] = await resume(setting, "mid-idempotent", steps);
    expect(reserved).toMatchObject({ ok: true, content: { seat: "7C", key } });
    // Two attempts with one key: the (idempotent) system applied it once.
    expect(effects(seats)).toEqual([`attempt 7C ${key}`, `applied 7C ${key}`, `attempt 7C ${key}`]);

    writeFileSync(gate, "");
    const readSteps: Step[] = [{ name: "lookup", args: { key: "slow", file, gate } }];
    await crashHost(backend, journal, "mid-read", readSteps, () => effects(file).length === 1);
    rmSync(gate);
    const [read] = await resume(setting, "mid-read", readSteps);
    expect(code(read!)).toBe("ok");
    expect(effects(file)).toEqual(["lookup slow", "lookup slow"]);
  });

  it("killed after a completion: the outcome the host returned replays byte for byte, the effect happened once", async () => {
    const journal = freshJournal(backend);
    const { setting, dir } = journal;
    const file = join(dir, "effects.txt");
    const steps: Step[] = [
      { name: "append_line", args: { line: "sent email", file } },
      { name: "gather", args: { keys: ["p", "q"], file } },
      { wait: true },
    ];
    const printed = await crashHost(backend, journal, "after-completion", steps, waiting);
    const [sent, gathered] = await resume(setting, "after-completion", steps);
    expect(JSON.stringify(sent)).toBe(printed.get(0));
    expect(JSON.stringify(gathered)).toBe(printed.get(1));
    expect(effects(file)).toEqual(["sent email", "lookup p", "lookup q"]);
  });

  it("killed during a sandboxed call: the write in the sandbox is answered EFFECT_UNKNOWN, the call before it replays", async () => {
    const journal = freshJournal(backend);
    const { setting, path, dir } = journal;
    const file = join(dir, "effects.txt");
    const steps: Step[] = [
      { name: "append_line", args: { line: "first", file } },
      { name: "slow_sandboxed", args: { id: "s1", ms: 60_000 } },
    ];
    let seenAt = 0;
    const printed = await crashHost(backend, journal, "sandboxed", steps, async (lines) => {
      // The intent is committed before the sandbox child is asked; give the child time to start and run.
      if (seenAt === 0 && (await recordedCalls(backend, path)).some((c) => c.tool === "slow_sandboxed"))
        seenAt = Date.now();
      return seenAt !== 0 && Date.now() - seenAt > 1_500 && lines.some((l) => l.includes('"calling":1'));
    });
    const [first, slow] = await resume(setting, "sandboxed", steps);
    expect(JSON.stringify(first)).toBe(printed.get(0));
    expect(code(slow!)).toBe("EFFECT_UNKNOWN");
    expect(effects(file)).toEqual(["first"]);
  });

  it("keeps the repeat guard and the budget across the crash", async () => {
    const journal = freshJournal(backend);
    const { setting, dir } = journal;
    const file = join(dir, "effects.txt");
    const steps: Step[] = [
      { name: "lookup", args: { key: "k", file } },
      { name: "lookup", args: { key: "k", file } },
      { wait: true },
    ];
    const printed = await crashHost(backend, journal, "guarded", steps, waiting, 3);
    expect(JSON.parse(printed.get(1)!)).toMatchObject({ ok: false, error: { code: "REPEAT_STOPPED" } });
    const after: Step[] = [...steps, { name: "lookup", args: { key: "k", file } }, { name: "tick", args: { i: 1 } }];
    const [a, b, c, d] = await resume(setting, "guarded", after, 3);
    expect([JSON.stringify(a), JSON.stringify(b)]).toEqual([printed.get(0), printed.get(1)]);
    expect(code(c!)).toBe("REPEAT_STOPPED");
    expect(code(d!)).toBe("BUDGET_EXCEEDED");
    expect(effects(file)).toEqual(["lookup k"]);
  });
});
