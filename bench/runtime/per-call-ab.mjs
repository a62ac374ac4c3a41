// Per call, two builds of cave side by side in ONE process (an A/B of a runtime change):
//   node per-call-ab.mjs <rootA> <repoA> <rootB> <repoB> [rounds] [iterations]
// (root: a project from nine-project.mjs, built by that repo; repo: a checkout after `npm run build`.)
// Each repo's dist/runtime/index.js is imported and given its own runtime and run; rounds of `iterations` calls to
// the first tool alternate A and B (the order flips every round), CPU time. Prints each side's median and fastest
// round and the median of the per-round ratios B/A. Why one process: on this shared machine a process's per-call
// cost moves by ±10 % from one process to the next with the same build (per-call-peers.mjs runs one side per
// process), while rounds alternating in one process see the same machine; a change of 1–3 % shows here and not there.
// Both runtimes share one heap (about twice per-call-peers.mjs's), so compare ratios, not absolute figures. The
// position is not neutral: with the same build on both sides, B/A came out 0.94–1.00 in one process or another under
// load, so run it both ways, (A, B) then (B, A), and take the change of B against A as sqrt(ratio1 / ratio2).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ARGS, toolName } from "./nine-project.mjs";

const [rootA, repoA, rootB, repoB, roundsArg, iterationsArg] = process.argv.slice(2);
if (repoB === undefined)
  throw new Error("usage: per-call-ab.mjs <rootA> <repoA> <rootB> <repoB> [rounds] [iterations]");
const ROUNDS = Number(roundsArg ?? 15);
const ITERATIONS = Number(iterationsArg ?? 20_000);

async function runOf(root, repo) {
  const { createRuntime } = await import(pathToFileURL(join(repo, "dist/runtime/index.js")).href);
  const runtime = await createRuntime({ root, mode: "host" });
  return runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER, maxWallMs: Number.MAX_SAFE_INTEGER } });
}
const runs = { A: await runOf(rootA, repoA), B: await runOf(rootB, repoB) };

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const name = toolName(0);
async function round(run) {
  const t = cpuUs();
  for (let k = 0; k < ITERATIONS; k++) {
    const outcome = await run.call(name, ARGS);
    if (!outcome.ok) throw new Error(outcome.error.message);
  }
  return (cpuUs() - t) / ITERATIONS;
}

const times = { A: [], B: [] };
// Two rounds each to warm up, not counted.
for (let r = -2; r < ROUNDS; r++)
  for (const side of r % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
    const us = await round(runs[side]);
    if (r >= 0) times[side].push(us);
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ratios = times.A.map((a, i) => times.B[i] / a);
process.stdout.write(
  `${JSON.stringify({
    aUs: median(times.A),
    aFastestUs: Math.min(...times.A),
    bUs: median(times.B),
    bFastestUs: Math.min(...times.B),
    bOverA: median(ratios),
  })}\n`,
);
