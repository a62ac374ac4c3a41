// Build benchmark (issue 3): cold build (fresh clone; and with the previous build folder kept), no-change
// rebuild and one-file-change rebuild of 10 / 100 / 1,000
// generated tool modules, side by side with `tsc --noEmit` on the same tree, in one run, as ratios.
// Usage: npm run build && node bench/build/run.mjs [sizes...]   (default 10 100 1000)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { generateProject } from "./generate.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(repoRoot, "dist", "compiler", "cli", "bin.js");
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
// Three runs at every size: with two, the "median" below is the slower run.
const RUNS = 3;

function time(command, args, env = {}) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [command, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, CI: "", ...env },
  });
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = [];
const loadBefore = loadavg();
for (const n of sizes.length ? sizes : [10, 100, 1000]) {
  const root = mkdtempSync(join(tmpdir(), `cave-bench-${n}-`));
  try {
    generateProject(root, n, repoRoot);
    const cold = [],
      coldKept = [],
      warm = [],
      oneFile = [],
      tscTimes = [];
    const clearCaches = () => rmSync(join(root, "node_modules", ".cache", "cave"), { recursive: true, force: true });
    for (let r = 0; r < RUNS; r++) {
      // Cold, as in a fresh clone: no whole-build cache, no per-pass cache, no build folder, no lock. The folder
      // is removed before tsc runs, not just before the build: freeing 55 MB (discarded blocks on this disk) slows
      // the file creation that follows, which a fresh clone does not have.
      clearCaches();
      rmSync(join(root, ".cave"), { recursive: true, force: true });
      rmSync(join(root, "cave.lock"), { force: true });
      tscTimes.push(time(tsc, ["-p", join(root, "tsconfig.json"), "--noEmit"]));
      cold.push(time(cli, ["build", "--write", "--root", root]));
      // Cold caches, but the previous build folder and lock still there (emit keeps identical files as links).
      clearCaches();
      coldKept.push(time(cli, ["build", "--write", "--root", root]));
      warm.push(time(cli, ["build", "--write", "--root", root]));
      const file = join(root, "tools", "tool_0000.ts");
      const text = readFileSync(file, "utf8");
      writeFileSync(file, text.replace(/Generated tool number 0[^"]*/, `Generated tool number 0, edit ${r}.`));
      oneFile.push(time(cli, ["build", "--write", "--root", root]));
    }
    rows.push({
      n,
      cold: median(cold),
      coldKept: median(coldKept),
      warm: median(warm),
      oneFile: median(oneFile),
      tsc: median(tscTimes),
      all: { cold, coldKept, warm, oneFile, tsc: tscTimes },
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const load = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
console.log(
  `node ${process.version}, ${process.arch}; median of runs; each figure is a whole CLI process (start-up included)`,
);
console.log(`load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after\n`);
console.log(
  "| tools | cold (fresh clone) | cold, folder kept | no-change rebuild | one-file rebuild | tsc --noEmit | cold / tsc | cold, folder kept / tsc | no-change / tsc | one-file / tsc |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  const ratio = (x) => (x / r.tsc).toFixed(2);
  console.log(
    `| ${r.n} | ${fmt(r.cold)} | ${fmt(r.coldKept)} | ${fmt(r.warm)} | ${fmt(r.oneFile)} | ${fmt(r.tsc)} | ${ratio(r.cold)} | ${ratio(r.coldKept)} | ${ratio(r.warm)} | ${ratio(r.oneFile)} |`,
  );
}
console.log("\nEvery run (ms), in order:");
for (const r of rows)
  for (const [name, xs] of Object.entries(r.all))
    console.log(`  ${r.n} ${name}: ${xs.map((x) => x.toFixed(0)).join(", ")}`);
