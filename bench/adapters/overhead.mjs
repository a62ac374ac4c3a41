// Adapter overhead over a direct run.call, in one process, CPU time per call (µs), rounds interleaved:
//   node overhead.mjs <root> <repoRoot>
// ai-sdk: the tool's execute (what generateText calls) vs run.call itself.
// openai-agents: tool.invoke of the adapter's tool vs tool.invoke of a plain tool() whose execute calls
// run.call directly (same schema, strict false): the difference is the adapter's own code, not the SDK's.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, repoRoot] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(repoRoot, path)).href);
const { createRuntime } = await load("dist/runtime/index.js");
const { toAISDKTools } = await load("dist/adapters/ai-sdk/index.js");
const { toOpenAIAgentsTools } = await load("dist/adapters/openai-agents/index.js");
const { tool, RunContext } = await import("@openai/agents-core");

const runtime = await createRuntime({ root, mode: "host" });
const run = runtime.startRun({ budget: { maxCalls: Number.MAX_SAFE_INTEGER } });
const args = { region: "EU" };
const argsText = JSON.stringify(args);
const ai = toAISDKTools(run).lookup;
const agents = toOpenAIAgentsTools(run).find((t) => t.name === "lookup");
const plain = tool({
  name: "lookup",
  description: "x",
  parameters: runtime.describeTools()[0].inputSchema,
  strict: false,
  execute: async (input) => {
    const outcome = await run.call("lookup", input);
    return outcome.ok ? outcome.content : outcome.error.message;
  },
});
const ctx = new RunContext({});
const details = { toolCall: { type: "function_call", callId: "c1", name: "lookup", arguments: argsText } };
const execOptions = { toolCallId: "c1", messages: [] };

const ITER = 50_000;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const cases = {
  direct: async () => {
    for (let i = 0; i < ITER; i++) await run.call("lookup", args);
  },
  directWithOptions: async () => {
    for (let i = 0; i < ITER; i++) await run.call("lookup", args, { correlationId: "c1" });
  },
  aiSdk: async () => {
    for (let i = 0; i < ITER; i++) await ai.execute(args, execOptions);
  },
  agentsPlain: async () => {
    for (let i = 0; i < ITER; i++) await plain.invoke(ctx, argsText, details);
  },
  agentsAdapter: async () => {
    for (let i = 0; i < ITER; i++) await agents.invoke(ctx, argsText, details);
  },
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const f of Object.values(cases)) await f(); // warm-up
for (let r = 0; r < 7; r++) {
  for (const [name, f] of Object.entries(cases)) {
    const t = cpu();
    await f();
    times[name].push((cpu() - t) / ITER);
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, med(v)]));
console.log(
  JSON.stringify({ ...m, aiSdkOverUs: m.aiSdk - m.directWithOptions, agentsOverUs: m.agentsAdapter - m.agentsPlain }),
);
