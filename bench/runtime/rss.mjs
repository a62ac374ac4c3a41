// Resident memory after calling every tool of a nine-project.mjs project once, in a fresh process:
//   node rss.mjs <side> <root> <repoRoot>      side: cave | ajv | aiSdk (as in first-call.mjs)
// Prints { rssMB, heapMB } after a full GC when --expose-gc is given (run.mjs gives it), and cpuMs: the process's CPU
// time (user + system, all threads) until then, Node's start-up included.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ARGS, callAiSdkTool } from "./nine-project.mjs";

const [side, root, repoRoot] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(repoRoot, path)).href);
// The parsed lock is kept only by the side that needs it (Ajv compiles its schemas): a parsed 1,000-tool lock is ~50 MB
// of heap that neither cave (it reads its own lock lazily) nor the AI SDK holds in production.
const readLock = () => JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
const names = Object.keys(readLock().tools).sort();
const context = { signal: new AbortController().signal, callId: "x", call: async () => null };

if (side === "cave") {
  const { createRuntime } = await load("dist/runtime/index.js");
  const runtime = await createRuntime({ root, mode: "host" });
  for (const name of names) if (!(await runtime.call(name, ARGS)).ok) throw new Error(`cave: ${name} failed`);
} else if (side === "ajv") {
  const { Ajv } = await load("node_modules/ajv/dist/ajv.js");
  const addFormats = (await load("node_modules/ajv-formats/dist/index.js")).default.default;
  const ajv = new Ajv({ strict: false });
  addFormats(ajv);
  const lock = readLock();
  for (const name of names) {
    const tool = lock.tools[name];
    const input = ajv.compile(tool.input.jsonSchema);
    const output = ajv.compile(tool.output.jsonSchema);
    const execute = (await import(pathToFileURL(join(root, tool.source.bundle)).href))[tool.export].execute;
    if (!input(ARGS) || !output(await execute(ARGS, context))) throw new Error(`ajv: ${name} failed`);
  }
} else if (side === "aiSdk") {
  const lib = await load("node_modules/@ai-sdk/provider-utils/dist/index.mjs");
  const { tools } = await import(pathToFileURL(join(root, "ai-sdk-tools.mjs")).href);
  for (const name of names)
    if ((await callAiSdkTool(lib, tools[name], ARGS)).ok !== true) throw new Error(`aiSdk: ${name} failed`);
} else throw new Error(`unknown side ${side}`);
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();
const { user, system } = process.cpuUsage();
process.stdout.write(JSON.stringify({ rssMB: rss / 1e6, heapMB: heapUsed / 1e6, cpuMs: (user + system) / 1000 }));
