// A host process for the sandbox tests (bundled by support/host-process.ts): it runs one job and
// reports each outcome as a JSON line on stdout. It never closes its runtime or dispatcher: whether
// the process then exits by itself is part of what the tests observe.
import { createRuntime } from "../../../runtime/index.js";

interface Job {
  readonly root: string;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly args: unknown }>;
  /** With a journal setting ("file:<path>", "sqlite:<path>"): calls go through runtime.startRun({ id: runId }). */
  readonly journal?: string;
  readonly runId?: string;
}

const job = JSON.parse(process.argv[2]!) as Job;
const runtime = await createRuntime({
  root: job.root,
  mode: "host",
  breaker: { failureThreshold: 1000 },
  journal: job.journal ?? null,
});
const target = job.journal === undefined ? runtime : runtime.startRun({ id: job.runId ?? "run" });
for (const call of job.calls) {
  const outcome = await target.call(call.name, call.args);
  process.stdout.write(
    `${JSON.stringify({ name: call.name, ok: outcome.ok, code: outcome.ok ? null : outcome.error.code, content: outcome.ok ? outcome.content : null, isolation: outcome.receipt.isolation })}\n`,
  );
}
process.stdout.write(`${JSON.stringify({ done: true })}\n`);
