// Adapter benchmark (issue 16), side by side in one run:
//  1. MCP start-up at 1,000 locked tools over stdio: spawn → initialize → tools/list → first tools/call,
//     `cave serve` against an McpServer built with zod schemas at start-up (median of fresh processes,
//     interleaved), twice: declaring the output schemas cave advertises (the same tools; the SDK's client
//     compiles an ajv validator for each at tools/list) and declaring input schemas only (the first baseline);
//  2. per-call stdio round trip, all three (sequential tools/call);
//     with each server's own CPU time for its start-up and per call (wall time on a loaded machine is mostly
//     the scheduler's);
//  3. adapter overhead over a direct run.call: AI SDK execute and OpenAI Agents invoke (CPU µs per call).
// Usage: npm run build && node bench/adapters/run.mjs [tools] [--project DIR]   (default 1000)
// --project DIR: generate and build the project there once and reuse it on later runs (a cold build of 1,000
// tools takes minutes); without it, a temporary project is built and removed. A kept project is not rebuilt: remove
// it after a change to the compiler.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateProject } from "../build/generate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const cli = join(repoRoot, "dist", "compiler", "cli", "bin.js");
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--project");
const n = Number(positional[0] ?? 1000);
const kept = process.argv.includes("--project") ? process.argv[process.argv.indexOf("--project") + 1] : undefined;
const RUNS = 3;
const CALLS = 200;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const node = (script, args) =>
  JSON.parse(
    execFileSync(process.execPath, [join(here, script), ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );

const root = kept ?? mkdtempSync(join(tmpdir(), `cave-adapters-bench-${n}-`));
const small = mkdtempSync(join(tmpdir(), "cave-adapters-bench-call-"));
try {
  if (!existsSync(join(root, "cave.lock"))) buildProbeProject(root);
  const sides = {
    cave: [process.execPath, JSON.stringify([cli, "serve", "--root", root])],
    zod: [process.execPath, JSON.stringify([join(here, "zod-server.mjs"), root, "--output-schemas"])],
    zodInputOnly: [process.execPath, JSON.stringify([join(here, "zod-server.mjs"), root])],
  };
  const figures = { cave: [], zod: [], zodInputOnly: [] };
  for (let r = 0; r < RUNS; r++)
    for (const [name, [command, args]] of Object.entries(sides))
      figures[name].push(node("mcp-client.mjs", [command, args, "bench_probe", String(CALLS)]));
  const start = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v.map((f) => f.startMs))]));
  const perCall = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v.map((f) => f.perCallUs))]));
  const startCpu = Object.fromEntries(
    Object.entries(figures).map(([k, v]) => [k, median(v.map((f) => f.serverStartCpuMs ?? NaN))]),
  );
  const perCallCpu = Object.fromEntries(
    Object.entries(figures).map(([k, v]) => [k, median(v.map((f) => f.serverPerCallCpuUs ?? NaN))]),
  );

  mkdirSync(join(small, "tools"));
  writeFileSync(
    join(small, "tools", "lookup.ts"),
    [
      `import { schema, tool } from "cave";`,
      `export const lookup = tool({ name: "lookup", description: "Read a policy.", input: schema.object({ region: schema.string() }),`,
      `  output: schema.object({ region: schema.string(), days: schema.integer() }), effect: "read", sandbox: "none", allowRepeat: true, result: "inline",`,
      `  execute: ({ region }) => ({ region, days: 14 }) });`,
      "",
    ].join("\n"),
  );
  symlinkSync(join(repoRoot, "node_modules"), join(small, "node_modules"), "dir");
  execFileSync(process.execPath, [cli, "build", "--write", "--root", small], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const overhead = node("overhead.mjs", [small, repoRoot]);

  const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
  console.log(
    `MCP over stdio, ${n + 1} locked tools (the calls go to an in-process read tool), median of ${RUNS} fresh processes each, interleaved; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    "McpServer + zod: with the output schemas cave advertises (the same tools) / input schemas only (no output validators for the client to compile)",
  );
  console.log(
    `| | cave serve | McpServer + zod | zod / cave | McpServer + zod, input schemas only | zod input-only / cave |`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- |`);
  const row = (label, f, fmt, digits) =>
    console.log(
      `| ${label} | ${fmt(f.cave)} | ${fmt(f.zod)} | ${(f.zod / f.cave).toFixed(digits)}x | ${fmt(f.zodInputOnly)} | ${(f.zodInputOnly / f.cave).toFixed(digits)}x |`,
    );
  row("spawn → initialize → tools/list → first tools/call (wall)", start, ms, 2);
  row("server CPU for that start-up", startCpu, ms, 2);
  row(`per-call stdio round trip (${CALLS} sequential calls, wall)`, perCall, (x) => `${x.toFixed(0)} µs`, 2);
  row("server CPU per call", perCallCpu, (x) => `${x.toFixed(0)} µs`, 2);
  console.log("");
  console.log("Adapter overhead over run.call (in-process tool, CPU µs per call, median of 7 rounds of 50,000)");
  console.log(
    `| run.call | run.call + correlationId | AI SDK execute | overhead | Agents invoke, plain tool | Agents invoke, adapter | overhead |`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
  const us = (x) => x.toFixed(2);
  console.log(
    `| ${us(overhead.direct)} | ${us(overhead.directWithOptions)} | ${us(overhead.aiSdk)} | ${us(overhead.aiSdkOverUs)} | ${us(overhead.agentsPlain)} | ${us(overhead.agentsAdapter)} | ${us(overhead.agentsOverUs)} |`,
  );
} finally {
  if (kept === undefined) rmSync(root, { recursive: true, force: true });
  rmSync(small, { recursive: true, force: true });
}

/** The generated project of n tools plus the probe both servers are called through, built with this checkout's CLI. */
function buildProbeProject(root) {
  mkdirSync(root, { recursive: true });
  generateProject(root, n, repoRoot);
  // The tool both servers are called through: in-process (sandbox: "none"), so the figures are the MCP
  // path and cave's pipeline, not the start-up of a sandbox process (bench/sandbox measures that).
  writeFileSync(
    join(root, "tools", "bench_probe.ts"),
    [
      `import { schema, tool } from "cave";`,
      `export const benchProbe = tool({ name: "bench_probe", description: "The benchmark's probe.", input: schema.object({ customerId: schema.string(), query0: schema.string() }),`,
      `  output: schema.object({ ok: schema.boolean(), id: schema.string() }), effect: "read", sandbox: "none", allowRepeat: true, result: "inline",`,
      `  execute: ({ query0 }) => ({ ok: true, id: query0 }) });`,
      "",
    ].join("\n"),
  );
  execFileSync(process.execPath, [cli, "build", "--write", "--root", root], { stdio: ["ignore", "ignore", "inherit"] });
}
