// Run by run.mjs on a built project with lookup_in_process and lookup_sandboxed. Prints JSON.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, repoRoot] = process.argv.slice(2);
const { createRuntime, createSandboxDispatcher, sandboxLayers } = await import(pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href);

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
  const source = 'import { Socket } from "node:net"; const s = new Socket({ fd: 3, readable: true, writable: true }); s.on("data", (d) => s.write(d));';
  const child = spawn(process.execPath, ["--input-type=module", "--eval", source], { stdio: ["ignore", "ignore", "inherit", "pipe"] });
  const channel = child.stdio[3];
  const body = Buffer.from(JSON.stringify({ t: "run", id: "x.1", callId: "00000000-0000-0000-0000-000000000000", input: args }));
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

const sandbox = createSandboxDispatcher();
const runtime = await createRuntime({ root, mode: "host", dispatchers: { required: sandbox } });
const run = runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER, maxWallMs: 3_600_000 } });
await times(run, "lookup_in_process", CALLS);
await times(run, "lookup_sandboxed", CALLS);
const inProcess = [];
const sandboxed = [];
const inP90 = [];
const sbP90 = [];
for (let r = 0; r < ROUNDS; r++) {
  const a = await times(run, "lookup_in_process", CALLS);
  const b = await times(run, "lookup_sandboxed", CALLS);
  inProcess.push(median(a));
  sandboxed.push(median(b));
  inP90.push(quantile(a, 0.9));
  sbP90.push(quantile(b, 0.9));
}
sandbox.close();

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

const layers = await sandboxLayers();
const coldRows = [await cold({ spare: false, networkNamespace: "off" }, "new child, no network namespace")];
if (layers.networkNamespace.active) coldRows.push(await cold({ spare: false, networkNamespace: "required" }, `new child in a network namespace (${layers.networkNamespace.method})`));
coldRows.push(await cold({ spare: true }, "spare child already started"));

const active = [layers.permissionModel, "deny layer", layers.networkNamespace.active ? layers.networkNamespace.method : null, layers.processGroup ? "own session" : null, layers.rssWatchdog ? "RSS watchdog" : null].filter(Boolean).join(", ");
process.stdout.write(
  JSON.stringify({
    cpus: availableParallelism(),
    layers: active,
    warm: { rawEcho: median(raw), inProcess: { median: median(inProcess), p90: median(inP90) }, sandboxed: { median: median(sandboxed), p90: median(sbP90) } },
    cold: coldRows,
  }),
);
