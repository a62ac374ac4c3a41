// Per-call overhead of the in-process pipeline over calling execute directly, for a small schema.
// Run by run.mjs on a built one-tool project:
//   node per-call.mjs <root> <repoRoot> [<baselineRepoRoot>]
// With a baseline, both runtimes run in this one process, their rounds interleaved (run.mjs runs one
// process per runtime instead: two runtimes in one process slow each other down). Prints { now: { directUs, pipelineUs, overheadUs, fastestOverheadUs }, before?: {...} }.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, ...checkouts] = process.argv.slice(2);
const ITERATIONS = 100_000;
const ROUNDS = 7;
const args = { region: "EU" };

const sides = [];
for (const [i, checkout] of checkouts.entries()) {
  const { createRuntime } = await import(pathToFileURL(join(checkout, "dist/runtime/index.js")).href);
  const runtime = await createRuntime({ root, mode: "host" });
  sides.push({
    name: i === 0 ? "now" : "before",
    run: runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER } }),
    pipeline: [],
    direct: [],
  });
}

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
async function pipeline(run) {
  const t = cpuUs();
  for (let i = 0; i < ITERATIONS; i++) {
    const outcome = await run.call("lookup", args);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  return (cpuUs() - t) / ITERATIONS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await direct();
for (const side of sides) await pipeline(side.run);
for (let r = 0; r < ROUNDS; r++) {
  for (const side of sides) {
    side.direct.push(await direct());
    side.pipeline.push(await pipeline(side.run));
  }
}
// Medians, and the fastest round (the least disturbed by other work on a shared machine).
const out = {};
for (const side of sides) {
  out[side.name] = {
    directUs: median(side.direct),
    pipelineUs: median(side.pipeline),
    overheadUs: median(side.pipeline) - median(side.direct),
    fastestOverheadUs: Math.min(...side.pipeline) - Math.min(...side.direct),
  };
}
process.stdout.write(JSON.stringify(out));
