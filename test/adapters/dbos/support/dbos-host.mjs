// A DBOS application for the cave/dbos tests, run as its own process (`node dbos-host.mjs <job>`) on
// the built package (dist/): a "refund" workflow of four cave calls, each a DBOS step. mode "start"
// starts the workflow; mode "recover" only launches DBOS, which recovers the workflow a killed
// process left pending, and waits for its result. Each call's outcome is printed as a JSON line as
// the workflow function sees it (a replayed step prints again).
import { DBOS } from "@dbos-inc/dbos-sdk";
import { workflowRun } from "../../../../dist/adapters/dbos/index.js";
import { createRuntime } from "../../../../dist/runtime/index.js";

const job = JSON.parse(process.argv[2]);
const print = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const runtime = await createRuntime({ root: job.root, mode: "host", journal: job.journal });

const refund = DBOS.registerWorkflow(
  async (file, gate) => {
    const cave = workflowRun(runtime);
    const steps = [
      ["append_line", { line: "charge card", file }],
      ["lookup", { key: "order", file }],
      ["append_line", { line: "send email", file, gate }],
      ["append_line", { line: "close ticket", file }],
    ];
    const codes = [];
    for (const [i, [name, args]] of steps.entries()) {
      const outcome = await cave.call(name, args);
      print({ step: i, outcome: JSON.stringify(outcome) });
      codes.push(outcome.ok ? "ok" : outcome.error.code);
    }
    await cave.finish();
    return codes;
  },
  { name: "refund" },
);

DBOS.setConfig({ name: "cave-dbos-test", systemDatabaseUrl: job.dbUrl, applicationVersion: "1", logLevel: "error" });
await DBOS.launch();
const handle =
  job.mode === "start"
    ? await DBOS.startWorkflow(refund, { workflowID: job.workflowID })(job.file, job.gate)
    : DBOS.retrieveWorkflow(job.workflowID);
print({ started: job.mode });
const result = await handle.getResult();
const steps = await DBOS.listWorkflowSteps(job.workflowID);
print({ result, steps: steps.map((s) => s.name) });
await DBOS.shutdown();
await runtime.close();
print({ done: true });
