// First call of every tool (issue 11's performance section): in a fresh process, make the runtime ready and call each
// of N locked tools once (bench/runtime/rss.mjs, cave with createRuntime's defaults: these tools are sandbox: "none"),
// against the AI SDK importing the same N tools written with zod and calling each once; the resident memory after it
// (a full GC first). Node's own start-up (an empty script) is measured alongside and subtracted. Interleaved runs,
// medians, the ratio side by side, the load average before and after.
// Usage: npm run build && node bench/every-tool/run.mjs [N]   (default 1000)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildNineProject } from "../runtime/nine-project.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rssScript = join(repoRoot, "bench", "runtime", "rss.mjs");
const n = Number(process.argv[2] ?? 1000);
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(args) {
  const start = process.hrtime.bigint();
  const stdout = execFileSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out: stdout === "" ? {} : JSON.parse(stdout) };
}

const loadBefore = loadavg();
const root = mkdtempSync(join(tmpdir(), `cave-every-tool-${n}-`));
try {
  buildNineProject(root, repoRoot, n);
  const runs = { node: [], cave: [], aiSdk: [] };
  const rss = { cave: [], aiSdk: [] };
  for (let r = 0; r < RUNS; r++) {
    runs.node.push(timed(["-e", ""]).ms);
    for (const side of ["cave", "aiSdk"]) {
      const { ms, out } = timed(["--expose-gc", rssScript, side, root, repoRoot]);
      runs[side].push(ms);
      rss[side].push(out.rssMB);
    }
  }
  const node = median(runs.node);
  const cave = median(runs.cave) - node;
  const aiSdk = median(runs.aiSdk) - node;
  const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
  const load = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
  console.log(`node ${process.version}; ${n} tools; median of ${RUNS} interleaved fresh processes each, Node's start-up (${fmt(node)}) subtracted`);
  console.log(`load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after\n`);
  console.log("| tools | cave: ready + every tool once | AI SDK: import + every tool once | cave / AI SDK | cave RSS after | AI SDK RSS after |");
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
  console.log(`| ${n} | ${fmt(cave)} | ${fmt(aiSdk)} | ${(cave / aiSdk).toFixed(2)} | ${median(rss.cave).toFixed(0)} MB | ${median(rss.aiSdk).toFixed(0)} MB |`);
  console.log(`\nEvery run (ms, start-up included): node ${runs.node.map((x) => x.toFixed(0)).join(", ")}; cave ${runs.cave.map((x) => x.toFixed(0)).join(", ")}; AI SDK ${runs.aiSdk.map((x) => x.toFixed(0)).join(", ")}`);
  console.log(`RSS (MB): cave ${rss.cave.map((x) => x.toFixed(0)).join(", ")}; AI SDK ${rss.aiSdk.map((x) => x.toFixed(0)).join(", ")}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
