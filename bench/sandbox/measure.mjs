// Run by run.mjs on a built project with lookup_in_process and lookup_sandboxed. Prints JSON.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, repoRoot] = process.argv.slice(2);
const { createRuntime, createSandboxDispatcher, sandboxLayers } = await import(
  pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href
);

const CALLS = 2_000;
const ROUNDS = 5;
const COLD = 9;
const args = { region: "EU" };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];

/** Per-call wall times in µs of `calls` sequential calls. */
async function times(run, name, calls) {
  const out = new Array(calls);
  for (let i = 0; i < calls; i++) {
    const t = process.hrtime.bigint();
    const outcome = await run.call(name, args);
    out[i] = Number(process.hrtime.bigint() - t) / 1000;
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  return out;
}

/**
 * The floor on this machine, now: a bare Node child echoing one length-prefixed frame back over a
 * pipe on fd 3, with no pipeline, no validation and no sandbox layers.
 */
async function rawEcho(calls) {
  const source =
    'import { Socket } from "node:net"; const s = new Socket({ fd: 3, readable: true, writable: true }); s.on("data", (d) => s.write(d));';
  const child = spawn(process.execPath, ["--input-type=module", "--eval", source], {
    stdio: ["ignore", "ignore", "inherit", "pipe"],
  });
  const channel = child.stdio[3];
  const body = Buffer.from(
    JSON.stringify({ t: "run", id: "x.1", callId: "00000000-0000-0000-0000-000000000000", input: args }),
  );
  const frame = Buffer.concat([Buffer.from([0, 0, (body.length >> 8) & 255, body.length & 255]), body]);
  let answered;
  channel.on("data", () => answered());
  const out = [];
  for (let i = 0; i < calls; i++) {
    const t = process.hrtime.bigint();
    await new Promise((resolve) => {
      answered = resolve;
      channel.write(frame);
    });
    out.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  child.kill();
  return out;
}
await rawEcho(CALLS);
const raw = [];
for (let r = 0; r < ROUNDS; r++) raw.push(median(await rawEcho(CALLS)));

const layers = await sandboxLayers();
// The warm call under the Node layers only, and under the OS layer (bubblewrap) where it starts here, in one run.
const sandboxOs = layers.osLayer.active ? createSandboxDispatcher({ isolation: "os" }) : undefined;
const sandbox = createSandboxDispatcher({ isolation: "node" });
const runtime = await createRuntime({ root, mode: "host", dispatchers: { required: sandbox } });
const runtimeOs =
  sandboxOs === undefined
    ? undefined
    : await createRuntime({ root, mode: "host", dispatchers: { required: sandboxOs } });
const budget = { budget: { maxCalls: Number.MAX_SAFE_INTEGER, maxWallMs: 3_600_000 } };
const run = runtime.startRun(budget);
const runOs = runtimeOs?.startRun(budget);
await times(run, "lookup_in_process", CALLS);
await times(run, "lookup_sandboxed", CALLS);
if (runOs) await times(runOs, "lookup_sandboxed", CALLS);
const inProcess = [];
const sandboxed = [];
const sandboxedOs = [];
const inP90 = [];
const sbP90 = [];
const osP90 = [];
for (let r = 0; r < ROUNDS; r++) {
  const a = await times(run, "lookup_in_process", CALLS);
  const b = await times(run, "lookup_sandboxed", CALLS);
  inProcess.push(median(a));
  sandboxed.push(median(b));
  inP90.push(quantile(a, 0.9));
  sbP90.push(quantile(b, 0.9));
  if (runOs) {
    const c = await times(runOs, "lookup_sandboxed", CALLS);
    sandboxedOs.push(median(c));
    osP90.push(quantile(c, 0.9));
  }
}
sandbox.close();
sandboxOs?.close();

/** The first call of the sandboxed tool in `COLD` new runs; each run's child is new, or the waiting spare. */
async function cold(options, what) {
  const dispatcher = createSandboxDispatcher(options);
  const rt = await createRuntime({ root, mode: "host", dispatchers: { required: dispatcher } });
  const out = [];
  for (let i = 0; i < COLD; i++) {
    if (options.spare) {
      // Let the spare finish starting, as it would between two runs.
      while (dispatcher.stats().spares === 0 && i > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const t = process.hrtime.bigint();
    const outcome = await rt.startRun().call("lookup_sandboxed", args);
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  dispatcher.close();
  return { what, median: median(options.spare ? out.slice(1) : out) };
}

const coldRows = [await cold({ spare: false, isolation: "node" }, "new child, Node layers only")];
if (layers.osLayer.active)
  coldRows.push(
    await cold(
      { spare: false, isolation: "os" },
      `new child under bubblewrap (${layers.osLayer.namespaces.join(", ")} namespaces)`,
    ),
  );
coldRows.push(await cold({ spare: true }, "spare child already started"));

const active = [
  layers.permissionModel,
  "deny layer",
  layers.osLayer.active ? "OS layer (bubblewrap)" : null,
  layers.processGroup ? "own session" : null,
  layers.rssWatchdog ? "RSS watchdog" : null,
]
  .filter(Boolean)
  .join(", ");
process.stdout.write(
  JSON.stringify({
    cpus: availableParallelism(),
    layers: active,
    warm: {
      rawEcho: median(raw),
      inProcess: { median: median(inProcess), p90: median(inP90) },
      sandboxed: { median: median(sandboxed), p90: median(sbP90) },
      sandboxedOs: runOs ? { median: median(sandboxedOs), p90: median(osP90) } : null,
    },
    cold: coldRows,
  }),
);
