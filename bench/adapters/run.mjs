// Adapter benchmark (issue 16), side by side in one run:
//  1. MCP start-up at 1,000 locked tools over stdio: spawn → initialize → tools/list → first tools/call,
//     `cave serve` against an McpServer built with zod schemas at start-up (median of fresh processes,
//     interleaved);
//  2. per-call stdio round trip, both servers (sequential tools/call);
//  3. adapter overhead over a direct run.call: AI SDK execute and OpenAI Agents invoke (CPU µs per call).
// Usage: npm run build && node bench/adapters/run.mjs [tools]   (default 1000)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateProject } from "../build/generate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const cli = join(repoRoot, "dist", "compiler", "cli", "bin.js");
const n = Number(process.argv[2] ?? 1000);
const RUNS = 3;
const CALLS = 200;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const node = (script, args) => JSON.parse(execFileSync(process.execPath, [join(here, script), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));

const root = mkdtempSync(join(tmpdir(), `cave-adapters-bench-${n}-`));
const small = mkdtempSync(join(tmpdir(), "cave-adapters-bench-call-"));
try {
  generateProject(root, n, repoRoot);
  // The tool both servers are called through: in-process (sandbox: "none"), so the figures are the MCP
  // path and cave's pipeline, not the start-up of a sandbox process (bench/sandbox measures that).
  writeFileSync(join(root, "tools", "bench_probe.ts"), [
    `import { schema, tool } from "cave";`,
    `export const benchProbe = tool({ name: "bench_probe", description: "The benchmark's probe.", input: schema.object({ customerId: schema.string(), query0: schema.string() }),`,
    `  output: schema.object({ ok: schema.boolean(), id: schema.string() }), effect: "read", sandbox: "none", allowRepeat: true, result: "inline",`,
    `  execute: ({ query0 }) => ({ ok: true, id: query0 }) });`,
    "",
  ].join("\n"));
  execFileSync(process.execPath, [cli, "build", "--root", root], { stdio: ["ignore", "ignore", "inherit"] });
  const sides = {
    cave: [process.execPath, JSON.stringify([cli, "serve", "--root", root])],
    zod: [process.execPath, JSON.stringify([join(here, "zod-server.mjs"), root])],
  };
  const figures = { cave: [], zod: [] };
  for (let r = 0; r < RUNS; r++) for (const [name, [command, args]] of Object.entries(sides)) figures[name].push(node("mcp-client.mjs", [command, args, "bench_probe", String(CALLS)]));
  const start = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v.map((f) => f.startMs))]));
  const perCall = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v.map((f) => f.perCallUs))]));

  mkdirSync(join(small, "tools"));
  writeFileSync(join(small, "tools", "lookup.ts"), [
    `import { schema, tool } from "cave";`,
    `export const lookup = tool({ name: "lookup", description: "Read a policy.", input: schema.object({ region: schema.string() }),`,
    `  output: schema.object({ region: schema.string(), days: schema.integer() }), effect: "read", sandbox: "none", allowRepeat: true, result: "inline",`,
    `  execute: ({ region }) => ({ region, days: 14 }) });`,
    "",
  ].join("\n"));
  symlinkSync(join(repoRoot, "node_modules"), join(small, "node_modules"), "dir");
  execFileSync(process.execPath, [cli, "build", "--root", small], { stdio: ["ignore", "ignore", "inherit"] });
  const overhead = node("overhead.mjs", [small, repoRoot]);

  const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
  console.log(`MCP over stdio, ${n + 1} locked tools (the calls go to an in-process read tool) , median of ${RUNS} fresh processes each, interleaved`);
  console.log(`| | cave serve | McpServer + zod | ratio |`);
  console.log(`| --- | --- | --- | --- |`);
  console.log(`| spawn → initialize → tools/list → first tools/call | ${ms(start.cave)} | ${ms(start.zod)} | ${(start.zod / start.cave).toFixed(1)}x |`);
  console.log(`| per-call stdio round trip (${CALLS} sequential calls) | ${perCall.cave.toFixed(0)} µs | ${perCall.zod.toFixed(0)} µs | ${(perCall.zod / perCall.cave).toFixed(2)}x |`);
  console.log("");
  console.log("Adapter overhead over run.call (in-process tool, CPU µs per call, median of 7 rounds of 50,000)");
  console.log(`| run.call | run.call + correlationId | AI SDK execute | overhead | Agents invoke, plain tool | Agents invoke, adapter | overhead |`);
  console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
  const us = (x) => x.toFixed(2);
  console.log(`| ${us(overhead.direct)} | ${us(overhead.directWithOptions)} | ${us(overhead.aiSdk)} | ${us(overhead.aiSdkOverUs)} | ${us(overhead.agentsPlain)} | ${us(overhead.agentsAdapter)} | ${us(overhead.agentsOverUs)} |`);
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(small, { recursive: true, force: true });
}
