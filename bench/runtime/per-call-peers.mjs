// Per-call cost on the 9-property schema, side by side in one process, rounds interleaved:
//   node per-call-peers.mjs <root> <repoRoot>       (root: a project from nine-project.mjs, built)
// Every side calls the project's tools round-robin (tool i % N), so a cost that grows with the number
// of tools shows, with the same arguments (10 items):
//  - direct: the tool's own execute, imported from its locked bundle;
//  - ajv: the tool's input schema compiled by Ajv at set-up, validate, then execute;
//  - aiSdk: the Vercel AI SDK tool with the same contract as zod schemas: what generateText does per tool
//    call once the model's text is parsed (safeValidateTypes, then executeTool); telemetry and message
//    bookkeeping not included, so this is a lower bound of the AI SDK's cost;
//  - cave: run.call through the whole in-process pipeline (resolve, validation, deadline, result, receipt).
// CPU time of this process (user + system): other processes on a shared machine inflate wall time, not
// this. Prints { n, directUs, ajvUs, aiSdkUs, caveUs } (medians of the rounds, µs per call), the
// fastest round of each side, and the overheads over direct.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ARGS } from "./nine-project.mjs";

const [root, repoRoot] = process.argv.slice(2);
const ITERATIONS = Number(process.env.CAVE_BENCH_ITERATIONS ?? 50_000);
const ROUNDS = 7;
const load = (path) => import(pathToFileURL(join(repoRoot, path)).href);

const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
const names = Object.keys(lock.tools).sort();
const n = names.length;

const { createRuntime } = await load("dist/runtime/index.js");
const runtime = await createRuntime({ root, mode: "host" });
const run = runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER, maxWallMs: Number.MAX_SAFE_INTEGER } });

const context = { signal: new AbortController().signal, callId: "direct", call: async () => null };
const executes = [];
for (const name of names) executes.push((await import(pathToFileURL(join(root, lock.tools[name].source.bundle)).href))[lock.tools[name].export].execute);

const { Ajv } = await load("node_modules/ajv/dist/ajv.js");
const addFormats = (await load("node_modules/ajv-formats/dist/index.js")).default.default;
const ajv = new Ajv({ strict: false });
addFormats(ajv);
const validators = names.map((name) => ajv.compile(lock.tools[name].input.jsonSchema));

const { safeValidateTypes, executeTool } = await load("node_modules/@ai-sdk/provider-utils/dist/index.mjs");
const aiTools = (await import(pathToFileURL(join(root, "ai-sdk-tools.mjs")).href)).tools;
const aiList = names.map((name) => aiTools[name]);
const aiOptions = { toolCallId: "c1", messages: [] };

const sides = {
  direct: async (i) => executes[i](ARGS, context),
  ajv: async (i) => {
    if (!validators[i](ARGS)) throw new Error("ajv refused the arguments");
    return executes[i](ARGS, context);
  },
  aiSdk: async (i) => {
    const t = aiList[i];
    const checked = await safeValidateTypes({ value: ARGS, schema: t.inputSchema });
    if (!checked.success) throw checked.error;
    let output;
    for await (const part of executeTool({ execute: t.execute, input: checked.value, options: aiOptions })) output = part.output;
    return output;
  },
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
  for (let k = 0; k < ITERATIONS; k++) await call(k % n);
  return (cpuUs() - t) / ITERATIONS;
}

const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
for (const call of Object.values(sides)) await round(call);
for (let r = 0; r < ROUNDS; r++) for (const [name, call] of Object.entries(sides)) times[name].push(await round(call));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = { n };
for (const [name, xs] of Object.entries(times)) {
  out[`${name}Us`] = median(xs);
  out[`${name}FastestUs`] = Math.min(...xs);
}
for (const name of ["ajv", "aiSdk", "cave"]) out[`${name}OverUs`] = out[`${name}Us`] - out.directUs;
process.stdout.write(JSON.stringify(out));
