// Node versions benchmark (issue 19): the same measurements on every tested Node, side by side in one
// run, as ratios to the first Node given:
//  1. runtime ready + first call: createRuntime() on a 100-tool lock plus the first call, in a fresh
//     process (bench/runtime/first-call.mjs), median of 5 processes per Node, interleaved;
//  2. per-call overhead of the in-process pipeline over calling execute directly (bench/runtime/per-call.mjs),
//     CPU time, median of 3 processes per Node, interleaved;
//  3. sandboxed warm call, and a tool's first call in a new run (new child; spare child waiting)
//     (bench/sandbox/measure.mjs), one process per Node;
//  4. cold build of the 100-tool project (no lock, no build folder, no caches), a whole CLI process,
//     median of 3 per Node, interleaved.
// Every project is built once, by the Node running this script; each Node then runs the measurements
// itself (the scripts use process.execPath for their children). Nothing here loads a native addon.
// Usage: npm run build && node bench/node-versions/run.mjs [node binary...]
//   default: this Node, then the versions in .ci/node-versions (installed by .ci/node-install).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateProject } from "../build/generate.mjs";
import { buildLookupProject } from "../lookup-project.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(repoRoot, "dist", "compiler", "cli", "bin.js");
const pinned = () =>
  readFileSync(join(repoRoot, ".ci", "node-versions"), "utf8")
    .split("\n")
    .filter((line) => /^\d/.test(line))
    .map((version) =>
      join(
        execFileSync(join(repoRoot, ".ci", "node-install"), [version.trim()], { encoding: "utf8" }).trim(),
        "bin",
        "node",
      ),
    );
const nodes = process.argv.length > 2 ? process.argv.slice(2) : [process.execPath, ...pinned()];
const versions = nodes.map((node) => execFileSync(node, ["--version"], { encoding: "utf8" }).trim());
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const json = (node, script, args) =>
  JSON.parse(
    execFileSync(node, [join(repoRoot, "bench", script), ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
const loadBefore = loadavg();

const temp = mkdtempSync(join(tmpdir(), "cave-node-versions-bench-"));
const figures = nodes.map(() => ({ ready: [], perCall: [], build: [] }));
const sandbox = [];
try {
  const many = join(temp, "many");
  generateProject(many, 100, repoRoot);
  execFileSync(process.execPath, [cli, "build", "--write", "--root", many], { stdio: ["ignore", "ignore", "inherit"] });
  const small = mkdtempSync(join(temp, "small-"));
  buildLookupProject(small, repoRoot, [["lookup", "none"]]);
  const sandboxed = mkdtempSync(join(temp, "sandboxed-"));
  buildLookupProject(sandboxed, repoRoot, [
    ["lookup_in_process", "none"],
    ["lookup_sandboxed", "required"],
  ]);

  for (let r = 0; r < 5; r++)
    nodes.forEach((node, i) =>
      figures[i].ready.push(json(node, "runtime/first-call.mjs", ["runtime", many, repoRoot]).ms),
    );
  for (let r = 0; r < 3; r++)
    nodes.forEach((node, i) => figures[i].perCall.push(json(node, "runtime/per-call.mjs", [small, repoRoot]).now));
  nodes.forEach((node) => sandbox.push(json(node, "sandbox/measure.mjs", [sandboxed, repoRoot])));

  // The cold build runs on a copy of the 100-tool project that the runs share, cleared before each.
  const cold = join(temp, "cold");
  generateProject(cold, 100, repoRoot);
  for (let r = 0; r < 3; r++) {
    nodes.forEach((node, i) => {
      for (const path of [join(cold, "node_modules", ".cache", "cave"), join(cold, ".cave"), join(cold, "cave.lock")])
        rmSync(path, { recursive: true, force: true });
      const start = process.hrtime.bigint();
      execFileSync(node, [cli, "build", "--write", "--root", cold], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, CI: "" },
      });
      figures[i].build.push(Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

const rows = [
  ["runtime ready + first call, 100 tools (median of 5 processes)", "ms", (i) => median(figures[i].ready)],
  [
    "per-call overhead of the pipeline, small schema (CPU, median of 3 processes)",
    "µs",
    (i) => median(figures[i].perCall.map((p) => p.overheadUs)),
  ],
  ["call through the in-process pipeline (wall, warm)", "µs", (i) => sandbox[i].warm.inProcess.median],
  ["sandboxed warm call (wall, warm child)", "µs", (i) => sandbox[i].warm.sandboxed.median],
  ["sandboxed first call in a new run, new child", "ms", (i) => sandbox[i].cold[0].median],
  ["sandboxed first call in a new run, spare child waiting", "ms", (i) => sandbox[i].cold.at(-1).median],
  ["cold build, 100 tools (whole CLI process, median of 3)", "ms", (i) => median(figures[i].build)],
];
const fmt = (value, unit) =>
  unit === "ms" && value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(unit === "µs" ? 1 : 0)} ${unit}`;
const load = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
console.log(`${process.arch}, ${sandbox[0].cpus} CPUs; sandbox layers on ${versions[0]}: ${sandbox[0].layers}`);
console.log(`load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after\n`);
console.log(
  `| measure | ${versions.join(" | ")} | ${versions
    .slice(1)
    .map((v) => `${v} / ${versions[0]}`)
    .join(" | ")} |`,
);
console.log(
  `| --- | ${versions.map(() => "---:").join(" | ")} | ${versions
    .slice(1)
    .map(() => "---:")
    .join(" | ")} |`,
);
for (const [what, unit, value] of rows) {
  const values = nodes.map((_, i) => value(i));
  console.log(
    `| ${what} | ${values.map((v) => fmt(v, unit)).join(" | ")} | ${values
      .slice(1)
      .map((v) => (v / values[0]).toFixed(2))
      .join(" | ")} |`,
  );
}
