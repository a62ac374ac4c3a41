// First call of every tool (issue 11's performance section): in a fresh process, make the runtime ready and call each
// of N locked tools once (bench/runtime/rss.mjs, cave with createRuntime's defaults: these tools are sandbox: "none"),
// against the AI SDK importing the same N tools written with zod and calling each once; the resident memory after it
// (a full GC first). Node's own start-up (an empty script) is measured alongside and subtracted, from wall time and
// from CPU time (user + system of the process, all threads: less sensitive than wall time to other load). Interleaved runs,
// medians, the ratio side by side, the load average before and after.
// Usage: npm run build && node bench/every-tool/run.mjs [--baseline DIR] [N]   (default 1000)
//   --baseline DIR: also run cave from another checkout built with npm run build (e.g. the commit before a change),
//   with this checkout's rss.mjs, interleaved in the same run, on the same project built by that checkout.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildNineProject } from "../runtime/nine-project.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rssScript = join(repoRoot, "bench", "runtime", "rss.mjs");
const argv = process.argv.slice(2);
const baselineAt = argv.indexOf("--baseline");
const baseline = baselineAt === -1 ? undefined : resolve(argv.splice(baselineAt, 2)[1]);
const n = Number(argv[0] ?? 1000);
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(args) {
  const start = process.hrtime.bigint();
  const stdout = execFileSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out: stdout === "" ? {} : JSON.parse(stdout) };
}

const loadBefore = loadavg();
const root = mkdtempSync(join(tmpdir(), `cave-every-tool-${n}-`));
// The baseline runs on the same project built by its own compiler: the build folder's formats may differ between them.
const baselineRoot = baseline === undefined ? undefined : mkdtempSync(join(tmpdir(), `cave-every-tool-${n}-before-`));
try {
  buildNineProject(root, repoRoot, n);
  if (baselineRoot !== undefined) buildNineProject(baselineRoot, baseline, n);
  const runs = { node: [], cave: [], before: [], aiSdk: [] };
  const cpu = { node: [], cave: [], before: [], aiSdk: [] };
  const rss = { cave: [], before: [], aiSdk: [] };
  const sides = [
    ["cave", "cave", repoRoot, root],
    ...(baseline === undefined ? [] : [["before", "cave", baseline, baselineRoot]]),
    ["aiSdk", "aiSdk", repoRoot, root],
  ];
  for (let r = 0; r < RUNS; r++) {
    const empty = timed([
      "-e",
      "const { user, system } = process.cpuUsage(); process.stdout.write(JSON.stringify({ cpuMs: (user + system) / 1000 }))",
    ]);
    runs.node.push(empty.ms);
    cpu.node.push(empty.out.cpuMs);
    for (const [name, side, checkout, project] of sides) {
      const { ms, out } = timed(["--expose-gc", rssScript, side, project, checkout]);
      runs[name].push(ms);
      rss[name].push(out.rssMB);
      cpu[name].push(out.cpuMs);
    }
  }
  const node = median(runs.node);
  const cave = median(runs.cave) - node;
  const aiSdk = median(runs.aiSdk) - node;
  const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
  const load = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `node ${process.version}; ${n} tools; median of ${RUNS} interleaved fresh processes each, Node's start-up (${fmt(node)}) subtracted`,
  );
  console.log(`load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after\n`);
  console.log(
    "| tools | cave: ready + every tool once | AI SDK: import + every tool once | cave / AI SDK | cave RSS after | AI SDK RSS after |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
  console.log(
    `| ${n} | ${fmt(cave)} | ${fmt(aiSdk)} | ${(cave / aiSdk).toFixed(2)} | ${median(rss.cave).toFixed(0)} MB | ${median(rss.aiSdk).toFixed(0)} MB |`,
  );
  const cpuOf = (name) => median(cpu[name]) - median(cpu.node);
  console.log(
    `| ${n}, CPU time | ${fmt(cpuOf("cave"))} | ${fmt(cpuOf("aiSdk"))} | ${(cpuOf("cave") / cpuOf("aiSdk")).toFixed(2)} | | |`,
  );
  if (baseline !== undefined) {
    console.log(
      `| ${n}, cave before, CPU time | ${fmt(cpuOf("before"))} | ${fmt(cpuOf("aiSdk"))} | ${(cpuOf("before") / cpuOf("aiSdk")).toFixed(2)} | | |`,
    );
    const before = median(runs.before) - node;
    console.log(
      `| ${n}, cave before (${baseline}) | ${fmt(before)} | ${fmt(aiSdk)} | ${(before / aiSdk).toFixed(2)} | ${median(rss.before).toFixed(0)} MB | ${median(rss.aiSdk).toFixed(0)} MB |`,
    );
  }
  console.log(
    `\nEvery run (ms, start-up included): node ${runs.node.map((x) => x.toFixed(0)).join(", ")}; cave ${runs.cave.map((x) => x.toFixed(0)).join(", ")}; before ${runs.before.map((x) => x.toFixed(0)).join(", ")}; AI SDK ${runs.aiSdk.map((x) => x.toFixed(0)).join(", ")}`,
  );
  console.log(
    `RSS (MB): cave ${rss.cave.map((x) => x.toFixed(0)).join(", ")}; before ${rss.before.map((x) => x.toFixed(0)).join(", ")}; AI SDK ${rss.aiSdk.map((x) => x.toFixed(0)).join(", ")}`,
  );
} finally {
  for (const folder of [root, baselineRoot]) if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
}
