// Runtime benchmark (issues 5 and 20), side by side in one run, as ratios, on the issue's 9-property
// schema (nine-project.mjs: N tools, the same N tools written for the AI SDK with zod):
//  1. ready-to-first-call with 10 / 100 / 1,000 locked tools: createRuntime() + first call, against
//     compiling the same schemas with Ajv at start-up and then making the same call (what an MCP
//     client does today), and against the AI SDK importing its zod tools; and two floors: the floor of cave's
//     guarantees (guarantee-floor.mjs: the lock's seal, the entry's pin, the files' hashes, a private copy, the
//     arguments validated and hashed, nothing else: no runtime that keeps them can go under it), and the floor no
//     runtime at all can go under: importing the called tool's own module (every tool defined in it) and calling
//     its execute; medians of fresh processes, run interleaved;
//  2. per-call overhead over calling execute directly, against Ajv's validation alone and the AI SDK's
//     per-call work (per-call-peers.mjs);
//  3. RSS after calling every tool once (rss.mjs);
//  4. the install size of a runtime-only deploy against the whole package (deploy-size.mjs).
// Usage: npm run build && node bench/runtime/run.mjs [--baseline DIR] [--per-module K] [sizes...]   (default 10 100 1000)
//   --per-module K: K tools per module (default 100, so the module a first call imports grows with N up to 100 tools;
//   with a fixed K it stays the same size at every N, and what grows with N is the runtime's own work).
//   --baseline DIR: also measure the runtime of another checkout (built with npm run build) on the
//   same projects in the same run, e.g. the commit before a change: `git archive <commit> | tar -x -C DIR`,
//   link node_modules into DIR, build it there.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg, tmpdir } from "node:os";
import { buildNineProject } from "./nine-project.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const argv = process.argv.slice(2);
const baselineAt = argv.indexOf("--baseline");
const baseline = baselineAt === -1 ? undefined : resolve(argv.splice(baselineAt, 2)[1]);
const perModuleAt = argv.indexOf("--per-module");
const perModule = perModuleAt === -1 ? 100 : Number(argv.splice(perModuleAt, 2)[1]);
const sizes = argv.map(Number).filter(Boolean);
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The checkouts whose runtime is measured: this one ("now") and, with --baseline, the other ("before"). */
const sides = [["now", repoRoot], ...(baseline === undefined ? [] : [["before", baseline]])];

function node(script, args, env = {}, flags = []) {
  return JSON.parse(
    execFileSync(process.execPath, [...flags, join(here, script), ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env },
    }),
  );
}

const rows = [];
const perCall = [];
const rss = [];
const PEERS = ["cave", "ajv", "aiSdk"];
for (const n of sizes.length ? sizes : [10, 100, 1000]) {
  const root = mkdtempSync(join(tmpdir(), `cave-runtime-bench-${n}-`));
  try {
    buildNineProject(root, repoRoot, n, perModule);
    const times = { guarantees: [], direct: [], ajv: [], aiSdk: [] };
    for (const [name] of sides) times[name] = [];
    for (let r = 0; r < RUNS; r++) {
      for (const [name, checkout] of sides)
        times[name].push(node("first-call.mjs", ["runtime", root, checkout, "nine"]).ms);
      times.guarantees.push(node("first-call.mjs", ["guarantees", root, repoRoot, "nine"]).ms);
      times.direct.push(node("first-call.mjs", ["direct", root, repoRoot, "nine"]).ms);
      times.ajv.push(node("first-call.mjs", ["ajv", root, repoRoot, "nine"]).ms);
      times.aiSdk.push(node("first-call.mjs", ["aiSdk", root, repoRoot, "nine"]).ms);
    }
    rows.push({ n, ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) });
    // Per call: one process per side (what one side loads slows another), alternating, three each; the
    // runtime's side once per checkout. Every call goes to one tool: the per-call path with N tools locked.
    const calls = {};
    for (let r = 0; r < 3; r++) {
      for (const [name, checkout] of sides)
        (calls[name] ??= []).push(node("per-call-peers.mjs", [root, checkout, "cave"], { CAVE_BENCH_SPREAD: "1" }));
      for (const peer of PEERS.slice(1))
        (calls[peer] ??= []).push(node("per-call-peers.mjs", [root, repoRoot, peer], { CAVE_BENCH_SPREAD: "1" }));
    }
    perCall.push({ n, calls });
    const memory = {};
    for (const [name, checkout] of sides)
      memory[name] = node("rss.mjs", ["cave", root, checkout], {}, ["--expose-gc"]).rssMB;
    for (const peer of PEERS.slice(1))
      memory[peer] = node("rss.mjs", [peer, root, repoRoot], {}, ["--expose-gc"]).rssMB;
    rss.push({ n, memory });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const ratio = (a, b) => `${(a / b).toFixed(a / b >= 10 ? 0 : 1)}x`;
const us = (x) => `${x.toFixed(2)} µs`;
console.log(
  `node ${process.version}, ${process.arch}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}; the issue's 9-property schema (nine-project.mjs), ${perModule} tools per module\n`,
);
console.log(`ready + first call, median of ${RUNS} fresh processes each, interleaved (Node start-up excluded):\n`);
const names = sides.map(([name]) => name);
console.log(
  `| locked tools | ${names.map((name) => `cave ${name}`).join(" | ")} | floor of the guarantees | floor: the tool's own module + execute | Ajv compile at start-up + first call | AI SDK (zod tools) + first call | Ajv / guarantees floor | AI SDK / guarantees floor | ${names.map((name) => `Ajv / ${name} | AI SDK / ${name} | ${name} over the guarantees floor | ${name} / guarantees floor`).join(" | ")} |`,
);
console.log(
  `| ---: | ${names.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: | ---: | ---: | ${names.map(() => "---: | ---: | ---: | ---:").join(" | ")} |`,
);
for (const r of rows)
  console.log(
    `| ${r.n} | ${names.map((name) => fmt(r[name])).join(" | ")} | ${fmt(r.guarantees)} | ${fmt(r.direct)} | ${fmt(r.ajv)} | ${fmt(r.aiSdk)} | ${ratio(r.ajv, r.guarantees)} | ${ratio(r.aiSdk, r.guarantees)} | ${names.map((name) => `${ratio(r.ajv, r[name])} | ${ratio(r.aiSdk, r[name])} | ${fmt(r[name] - r.guarantees)} | ${(r[name] / r.guarantees).toFixed(2)}x`).join(" | ")} |`,
  );
console.log(
  "\nper call (CPU time; one process per side, 3 each, alternating, 7 rounds each; median of the processes' medians; overhead over the same process's direct execute):\n",
);
console.log(
  `| locked tools | direct execute | ${names.map((name) => `cave ${name}: overhead`).join(" | ")} | Ajv: validation | AI SDK: overhead | ${names.map((name) => `cave ${name} / Ajv`).join(" | ")} |`,
);
console.log(
  `| ---: | ---: | ${names.map(() => "---:").join(" | ")} | ---: | ---: | ${names.map(() => "---:").join(" | ")} |`,
);
for (const { n, calls } of perCall) {
  const over = (name, key) => median(calls[name].map((p) => p[`${key}OverUs`]));
  const cave = Object.fromEntries(names.map((name) => [name, over(name, "cave")]));
  console.log(
    `| ${n} | ${us(median(calls.ajv.map((p) => p.directUs)))} | ${names.map((name) => us(cave[name])).join(" | ")} | ${us(over("ajv", "ajv"))} | ${us(over("aiSdk", "aiSdk"))} | ${names.map((name) => ratio(cave[name], over("ajv", "ajv"))).join(" | ")} |`,
  );
}
console.log("\nRSS after calling every tool once (one fresh process each, after a full GC):\n");
console.log(`| locked tools | ${names.map((name) => `cave ${name}`).join(" | ")} | Ajv | AI SDK |`);
console.log(`| ---: | ${names.map(() => "---:").join(" | ")} | ---: | ---: |`);
for (const { n, memory } of rss)
  console.log(
    `| ${n} | ${names.map((name) => `${memory[name].toFixed(0)} MB`).join(" | ")} | ${memory.ajv.toFixed(0)} MB | ${memory.aiSdk.toFixed(0)} MB |`,
  );
console.log("\ninstall size of a deploy (deploy-size.mjs):\n");
console.log(
  execFileSync(process.execPath, [join(here, "deploy-size.mjs")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim(),
);
