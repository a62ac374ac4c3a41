// Per-call overhead of the in-process pipeline over calling execute directly, for a small schema.
// Run by run.mjs on a built one-tool project. Prints { directUs, pipelineUs, overheadUs } as JSON.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, repoRoot] = process.argv.slice(2);
const ITERATIONS = 100_000;
const ROUNDS = 7;
const args = { region: "EU" };

const { createRuntime } = await import(pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href);
const runtime = await createRuntime({ root, mode: "host" });
const run = runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER } });

const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
const locked = lock.tools.lookup;
const definition = (await import(pathToFileURL(join(root, locked.source.bundle)).href))[locked.export];
const context = { signal: new AbortController().signal, callId: "direct", call: async () => null };

// CPU time of this process (user + system), not wall time: on a shared machine other processes' work
// inflates wall time but not the CPU this loop spends. Microseconds per call.
function cpuUs() {
  const { user, system } = process.cpuUsage();
  return user + system;
}
async function direct() {
  const t = cpuUs();
  for (let i = 0; i < ITERATIONS; i++) await definition.execute(args, context);
  return (cpuUs() - t) / ITERATIONS;
}
async function pipeline() {
  const t = cpuUs();
  for (let i = 0; i < ITERATIONS; i++) {
    const outcome = await run.call("lookup", args);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  return (cpuUs() - t) / ITERATIONS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await direct();
await pipeline();
const d = [], p = [];
for (let r = 0; r < ROUNDS; r++) {
  d.push(await direct());
  p.push(await pipeline());
}
// Medians, and the fastest round (the least disturbed by other work on a shared machine).
process.stdout.write(JSON.stringify({ directUs: median(d), pipelineUs: median(p), overheadUs: median(p) - median(d), fastestOverheadUs: Math.min(...p) - Math.min(...d) }));
