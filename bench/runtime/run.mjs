// Runtime benchmark (issue 5), side by side in one run, as ratios:
//  1. ready-to-first-call with 10 / 100 / 1,000 locked tools: createRuntime() + first call, against
//     compiling the same schemas with Ajv at start-up and then making the same call (what an MCP
//     client does today); each figure is the median of fresh processes, run interleaved;
//  2. per-call overhead of the in-process pipeline over calling execute directly, small schema.
// Usage: npm run build && node bench/runtime/run.mjs [--baseline DIR] [sizes...]   (default 10 100 1000)
//   --baseline DIR: also measure the runtime of another checkout (built with npm run build) on the
//   same projects in the same run, e.g. the commit before a change: `git archive <commit> | tar -x -C DIR`,
//   link node_modules into DIR, build it there.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateProject } from "../build/generate.mjs";
import { buildLookupProject } from "../lookup-project.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const cli = join(repoRoot, "dist", "compiler", "cli", "bin.js");
const argv = process.argv.slice(2);
const baselineAt = argv.indexOf("--baseline");
const baseline = baselineAt === -1 ? undefined : resolve(argv.splice(baselineAt, 2)[1]);
const sizes = argv.map(Number).filter(Boolean);
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The checkouts whose runtime is measured: this one ("now") and, with --baseline, the other ("before"). */
const sides = [["now", repoRoot], ...(baseline === undefined ? [] : [["before", baseline]])];

function node(script, args) {
  return JSON.parse(execFileSync(process.execPath, [join(here, script), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
}
function buildProject(root) {
  execFileSync(process.execPath, [cli, "build", "--root", root], { stdio: ["ignore", "ignore", "inherit"] });
}

const rows = [];
for (const n of sizes.length ? sizes : [10, 100, 1000]) {
  const root = mkdtempSync(join(tmpdir(), `cave-runtime-bench-${n}-`));
  try {
    generateProject(root, n, repoRoot);
    buildProject(root);
    const times = { ajv: [] };
    for (const [name] of sides) times[name] = [];
    for (let r = 0; r < RUNS; r++) {
      for (const [name, checkout] of sides) times[name].push(node("first-call.mjs", ["runtime", root, checkout]).ms);
      times.ajv.push(node("first-call.mjs", ["ajv", root, repoRoot]).ms);
    }
    rows.push({ n, ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const small = mkdtempSync(join(tmpdir(), "cave-runtime-bench-call-"));
const perCall = {};
try {
  buildLookupProject(small, repoRoot, [["lookup", "none"]]);
  // One process per runtime (two runtimes in one process slow each other down), alternating, three each.
  for (const [name] of sides) perCall[name] = [];
  for (let r = 0; r < 3; r++) for (const [name, checkout] of sides) perCall[name].push(node("per-call.mjs", [small, checkout]).now);
} finally {
  rmSync(small, { recursive: true, force: true });
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const ratio = (a, b) => `${(a / b).toFixed(a / b >= 10 ? 0 : 1)}x`;
console.log(`node ${process.version}, ${process.arch}; median of ${RUNS} fresh processes each, interleaved (Node start-up excluded)\n`);
if (baseline === undefined) {
  console.log("| locked tools | runtime: ready + first call | Ajv compile at start-up + first call | Ajv / runtime |");
  console.log("| ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(`| ${r.n} | ${fmt(r.now)} | ${fmt(r.ajv)} | ${ratio(r.ajv, r.now)} |`);
} else {
  console.log("| locked tools | runtime before | runtime now | before / now | Ajv compile at start-up + first call | Ajv / before | Ajv / now |");
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(`| ${r.n} | ${fmt(r.before)} | ${fmt(r.now)} | ${ratio(r.before, r.now)} | ${fmt(r.ajv)} | ${ratio(r.ajv, r.before)} | ${ratio(r.ajv, r.now)} |`);
}
console.log("\nper call, small schema (CPU time; 3 processes per runtime, alternating, each 7 rounds of 100,000 calls; median of the processes' medians, and the fastest round of all):\n");
console.log("| runtime | execute directly | through the pipeline | overhead (median) | overhead (fastest round) |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const [name] of [...sides].reverse()) {
  const ps = perCall[name];
  const m = (key) => median(ps.map((p) => p[key]));
  console.log(`| ${name} | ${m("directUs").toFixed(2)} us | ${m("pipelineUs").toFixed(2)} us | ${m("overheadUs").toFixed(2)} us | ${Math.min(...ps.map((p) => p.fastestOverheadUs)).toFixed(2)} us |`);
}
