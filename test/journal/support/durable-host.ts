// A host process for the crash tests (bundled by test/sandbox/support/host-process.ts): it resumes
// (or starts) one durable run and makes the job's calls in order, writing each outcome as a JSON line
// on stdout exactly as the runtime returned it. A step { wait: true } writes {"waiting":i} and waits
// to be killed: the test's crash point between two calls.
import { createRuntime } from "../../../runtime/index.js";

interface Job {
  readonly root: string;
  readonly journal: string;
  readonly runId: string;
  readonly maxCalls?: number;
  readonly steps: ReadonlyArray<{ readonly name: string; readonly args: unknown } | { readonly wait: true }>;
}

const job = JSON.parse(process.argv[2]!) as Job;
const runtime = await createRuntime({ root: job.root, mode: "host", journal: job.journal });
const run = runtime.startRun({
  id: job.runId,
  ...(job.maxCalls === undefined ? {} : { budget: { maxCalls: job.maxCalls } }),
});
for (const [i, step] of job.steps.entries()) {
  if ("wait" in step) {
    process.stdout.write(`${JSON.stringify({ waiting: i })}\n`);
    await new Promise(() => setInterval(() => undefined, 60_000));
  }
  process.stdout.write(`${JSON.stringify({ calling: i })}\n`);
  const outcome = await run.call((step as { name: string }).name, (step as { args: unknown }).args);
  process.stdout.write(`${JSON.stringify({ step: i, outcome: JSON.stringify(outcome) })}\n`);
}
process.stdout.write(`${JSON.stringify({ done: true })}\n`);
