// Runtime benchmark (issue 5), side by side in one run, as ratios:
//  1. ready-to-first-call with 10 / 100 / 1,000 locked tools: createRuntime() + first call, against
//     compiling the same schemas with Ajv at start-up and then making the same call (what an MCP
//     client does today); each figure is the median of fresh processes;
//  2. per-call overhead of the in-process pipeline over calling execute directly, small schema.
// Usage: npm run build && node bench/runtime/run.mjs [sizes...]   (default 10 100 1000)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateProject } from "../build/generate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const cli = join(repoRoot, "dist", "compiler", "cli", "bin.js");
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
    const runtime = [], ajv = [];
    for (let r = 0; r < RUNS; r++) {
      runtime.push(node("first-call.mjs", ["runtime", root, repoRoot]).ms);
      ajv.push(node("first-call.mjs", ["ajv", root, repoRoot]).ms);
    }
    rows.push({ n, runtime: median(runtime), ajv: median(ajv) });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const small = mkdtempSync(join(tmpdir(), "cave-runtime-bench-call-"));
let perCall;
try {
  mkdirSync(join(small, "tools"));
  writeFileSync(
    join(small, "tools", "lookup.ts"),
    [
      `import { schema, tool } from "cave";`,
      `export const lookup = tool({`,
      `  name: "lookup",`,
      `  description: "Read the refund window of a region.",`,
      `  input: schema.object({ region: schema.string({ minLength: 2, maxLength: 8 }) }),`,
      `  output: schema.object({ region: schema.string(), days: schema.number() }),`,
      `  effect: "read",`,
      `  sandbox: "none",`,
      `  allowRepeat: true,`,
      `  execute({ region }) {`,
      `    return { region, days: 14 };`,
      `  },`,
      `});`,
      ``,
    ].join("\n"),
  );
  symlinkSync(join(repoRoot, "node_modules"), join(small, "node_modules"), "dir");
  buildProject(small);
  perCall = node("per-call.mjs", [small, repoRoot]);
} finally {
  rmSync(small, { recursive: true, force: true });
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
console.log(`node ${process.version}, ${process.arch}; median of ${RUNS} fresh processes each (Node start-up excluded)\n`);
console.log("| locked tools | runtime: ready + first call | Ajv compile at start-up + first call | Ajv / runtime |");
console.log("| ---: | ---: | ---: | ---: |");
for (const r of rows) console.log(`| ${r.n} | ${fmt(r.runtime)} | ${fmt(r.ajv)} | ${(r.ajv / r.runtime).toFixed(0)}x |`);
console.log(`\nper call, small schema (median of 7 rounds of 100,000 calls): execute directly ${perCall.directUs.toFixed(2)} us, through the pipeline ${perCall.pipelineUs.toFixed(2)} us, overhead ${perCall.overheadUs.toFixed(2)} us`);
