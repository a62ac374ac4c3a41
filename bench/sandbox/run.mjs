// Sandbox benchmark (issue 7), side by side in one run, as ratios:
//  1. warm round trip: one small call through the pipeline, in-process (sandbox: "none") against the
//     child-process sandbox (sandbox: "required"), same tool code, same schemas;
//  2. cold start: a tool's first call in a new run when a child must be started, with and without the
//     network namespace, and when a spare child is waiting.
// Usage: npm run build && node bench/sandbox/run.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildLookupProject } from "../lookup-project.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");

const root = mkdtempSync(join(tmpdir(), "cave-sandbox-bench-"));
try {
  buildLookupProject(root, repoRoot, [
    ["lookup_in_process", "none"],
    ["lookup_sandboxed", "required"],
  ]);
  const result = JSON.parse(
    execFileSync(process.execPath, [join(here, "measure.mjs"), root, repoRoot], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );

  const us = (x) => `${x.toFixed(1)} µs`;
  const ms = (x) => `${x.toFixed(1)} ms`;
  console.log(`node ${process.version}, ${process.arch}, ${result.cpus} CPUs; layers: ${result.layers}\n`);
  console.log("Warm round trip, small payload (wall time per call; median of each round, median over rounds):\n");
  console.log("| path | median | p90 | vs in-process pipeline |");
  console.log("| --- | ---: | ---: | ---: |");
  console.log(
    `| in-process pipeline (sandbox: "none") | ${us(result.warm.inProcess.median)} | ${us(result.warm.inProcess.p90)} | 1x |`,
  );
  console.log(
    `| sandboxed pipeline, Node layers only (isolation "node") | ${us(result.warm.sandboxed.median)} | ${us(result.warm.sandboxed.p90)} | ${(result.warm.sandboxed.median / result.warm.inProcess.median).toFixed(1)}x |`,
  );
  if (result.warm.sandboxedOs)
    console.log(
      `| sandboxed pipeline under the OS layer (isolation "os") | ${us(result.warm.sandboxedOs.median)} | ${us(result.warm.sandboxedOs.p90)} | ${(result.warm.sandboxedOs.median / result.warm.inProcess.median).toFixed(1)}x |`,
    );
  console.log(
    `| for scale: a bare child echoing one frame over a pipe (no pipeline, no sandbox) | ${us(result.warm.rawEcho)} | | |`,
  );
  // The issue's budget: the warm sandboxed call under 3x a bare child's echo, measured in the same run.
  console.log(
    `\nwarm sandboxed call / bare child echo: ${(result.warm.sandboxed.median / result.warm.rawEcho).toFixed(2)}x (Node layers)${result.warm.sandboxedOs ? `, ${(result.warm.sandboxedOs.median / result.warm.rawEcho).toFixed(2)}x (OS layer)` : ""} (target: under 3x)`,
  );
  console.log(
    `\nsandbox overhead per call: ${us(result.warm.sandboxed.median - result.warm.inProcess.median)} (target: sandboxed call under 100 µs median)\n`,
  );
  console.log("First call of a tool in a new run (median):\n");
  console.log("| child | median | vs warm sandboxed call |");
  console.log("| --- | ---: | ---: |");
  for (const row of result.cold)
    console.log(
      `| ${row.what} | ${ms(row.median)} | ${((row.median * 1000) / result.warm.sandboxed.median).toFixed(0)}x |`,
    );
} finally {
  rmSync(root, { recursive: true, force: true });
}
