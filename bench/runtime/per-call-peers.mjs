// Per-call cost on the 9-property schema, one side per process (run.mjs alternates processes):
//   node per-call-peers.mjs <root> <repoRoot> <side>      (root: a project from nine-project.mjs, built)
// One side per process because what one side loads slows another: measured here, cave's pipeline ran about
// 3x slower (CPU and wall time alike) in a process that had imported zod v4, which the AI SDK side needs.
// Every process also measures `direct`, rounds interleaved, so each side's overhead is over its own direct.
// Every side calls the project's tools round-robin (tool i % N), so a cost that grows with the number
// of tools shows, with the same arguments (10 items):
//  - direct: the tool's own execute, imported from its locked bundle;
//  - ajv: the tool's input schema compiled by Ajv at set-up, validate, then execute;
//  - aiSdk: the Vercel AI SDK tool with the same contract as zod schemas: what generateText does per tool
//    call once the model's text is parsed (safeValidateTypes, then executeTool); telemetry and message
//    bookkeeping not included, so this is a lower bound of the AI SDK's cost;
//  - cave: run.call through the whole in-process pipeline (resolve, validation, deadline, result, receipt).
// CPU time of this process (user + system): other processes on a shared machine inflate wall time, not
// this. Prints { n, directUs, <side>Us } (medians of the rounds, µs per call), the fastest round of each,
// the side's overhead over direct, and the process's RSS after the rounds (every tool called).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ARGS, callAiSdkTool } from "./nine-project.mjs";

const [root, repoRoot, only] = process.argv.slice(2);
const ITERATIONS = Number(process.env.CAVE_BENCH_ITERATIONS ?? 50_000);
const ROUNDS = 7;
const load = (path) => import(pathToFileURL(join(repoRoot, path)).href);

// The lock is parsed here only for what the sides need, and not kept: a parsed 1,000-tool lock is ~50 MB of heap
// that no side would hold in production (cave reads its own lock lazily), and heap size alone changes per-call cost.
const lockTools = () => JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")).tools;
const names = Object.keys(lockTools()).sort();
const n = names.length;
// CAVE_BENCH_SPREAD=1: every call goes to the first tool (the per-call path with N tools locked, without N validators competing for the CPU caches).
const spread = Number(process.env.CAVE_BENCH_SPREAD ?? n);

const context = { signal: new AbortController().signal, callId: "direct", call: async () => null };
// Only the bundles of the tools this process calls: importing all N for the direct side would put N modules in the
// heap of every side, and a larger heap makes every side's per-call garbage costlier to collect (docs/benchmarks.md).
const executes = [];
for (const [name, tool] of Object.entries(lockTools())
  .filter(([name]) => names.indexOf(name) < spread)
  .sort(([a], [b]) => (a < b ? -1 : 1))) {
  executes.push((await import(pathToFileURL(join(root, tool.source.bundle)).href))[tool.export].execute);
  if (executes.length !== names.indexOf(name) + 1) throw new Error("bundles out of order");
}

let run, validators, aiLib, aiList;
if (only === "cave") {
  const { createRuntime } = await load("dist/runtime/index.js");
  const runtime = await createRuntime({ root, mode: "host" });
  run = runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER, maxWallMs: Number.MAX_SAFE_INTEGER } });
} else if (only === "ajv") {
  const { Ajv } = await load("node_modules/ajv/dist/ajv.js");
  const addFormats = (await load("node_modules/ajv-formats/dist/index.js")).default.default;
  const ajv = new Ajv({ strict: false });
  addFormats(ajv);
  const tools = lockTools();
  validators = names.map((name) => ajv.compile(tools[name].input.jsonSchema));
} else if (only === "aiSdk") {
  aiLib = await load("node_modules/@ai-sdk/provider-utils/dist/index.mjs");
  const aiTools = (await import(pathToFileURL(join(root, "ai-sdk-tools.mjs")).href)).tools;
  aiList = names.map((name) => aiTools[name]);
} else throw new Error(`unknown side ${only}: cave, ajv or aiSdk`);

const sides = {
  direct: async (i) => executes[i](ARGS, context),
  ajv: async (i) => {
    if (!validators[i](ARGS)) throw new Error("ajv refused the arguments");
    return executes[i](ARGS, context);
  },
  aiSdk: (i) => callAiSdkTool(aiLib, aiList[i], ARGS),
  cave: async (i) => {
    const outcome = await run.call(names[i], ARGS);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.content;
  },
};

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
async function round(call) {
  const t = cpuUs();
  for (let k = 0; k < ITERATIONS; k++) await call(k % spread);
  return (cpuUs() - t) / ITERATIONS;
}

for (const name of Object.keys(sides)) if (name !== "direct" && name !== only) delete sides[name];
const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
for (const call of Object.values(sides)) await round(call);
for (let r = 0; r < ROUNDS; r++) for (const [name, call] of Object.entries(sides)) times[name].push(await round(call));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = { n };
for (const [name, xs] of Object.entries(times)) {
  out[`${name}Us`] = median(xs);
  out[`${name}FastestUs`] = Math.min(...xs);
}
for (const name of Object.keys(sides).filter((s) => s !== "direct"))
  out[`${name}OverUs`] = out[`${name}Us`] - out.directUs;
out.rssMB = process.memoryUsage().rss / 1e6;
process.stdout.write(JSON.stringify(out));
