// Durable-run journal benchmark (issue 17), side by side in one run:
//  1. per-call cost of a journaled call over the same call without a journal, for each backend, on
//     the disk (every record synced: fsync) and on a tmpfs (/dev/shm: a sync costs nothing there, so
//     the difference is what fsync costs on this disk); sequential calls of a small read tool,
//     interleaved rounds, median of the rounds;
//  2. calls per second one host sustains with a durable journal on the disk: 16 runs calling
//     concurrently;
//  3. resume time of a run of 10,000 recorded calls: a new runtime opens the journal, startRun({ id })
//     and the first call returns (a replay); and the time to replay all 10,000. The run is recorded
//     on the tmpfs (10,000 synced records take minutes on a slow disk) and its journal copied to the
//     disk before the resume is measured there.
// Wall time (the journal's cost is mostly fsync, which CPU time would not show). The machine is
// shared: read the ratios, and run it twice.
// Usage: npm run build && node bench/journal/run.mjs
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const { createRuntime } = await import(pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href);
const SEQUENTIAL = Number(process.env.CAVE_BENCH_SEQUENTIAL ?? 300);
const ROUNDS = 3;
const CONCURRENT_RUNS = 16;
const SUSTAINED = Number(process.env.CAVE_BENCH_SUSTAINED ?? 2_000);
const TOTAL = 10_000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const root = mkdtempSync(join(tmpdir(), "cave-journal-bench-"));
mkdirSync(join(root, "tools"));
writeFileSync(
  join(root, "tools", "lookup.ts"),
  `import { schema, tool } from "cave";
export const lookup = tool({
  name: "lookup",
  description: "Look a key up.",
  input: schema.object({ key: schema.integer() }),
  output: schema.object({ key: schema.integer(), value: schema.string() }),
  effect: "read",
  sandbox: "none",
  result: "inline",
  execute: ({ key }) => ({ key, value: "v" + key }),
});
`,
);
symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
execFileSync(process.execPath, [join(repoRoot, "dist/compiler/cli/bin.js"), "build", "--write", "--root", root], {
  stdio: ["ignore", "ignore", "inherit"],
});

const budget = { maxCalls: 1_000_000, maxWallMs: 3_600_000 };
const shm = mkdtempSync(join("/dev/shm", "cave-journal-bench-"));
let fresh = 0;
/** A fresh journal: "sqlite" / "file" on the disk (under the temporary root), "sqlite-tmpfs" / "file-tmpfs" on /dev/shm. */
const settingFor = (backend) => {
  const dir = join(backend.endsWith("-tmpfs") ? shm : root, `j${fresh++}`);
  const kind = backend.replace("-tmpfs", "");
  return backend === "none"
    ? null
    : kind === "sqlite"
      ? `sqlite:${join(dir, "journal.db")}`
      : `file:${join(dir, "journal.jsonl")}`;
};
const BACKENDS = ["none", "sqlite", "file", "sqlite-tmpfs", "file-tmpfs"];

// 1. Per call, sequential.
const perCall = Object.fromEntries(BACKENDS.map((b) => [b, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const backend of BACKENDS) {
    const runtime = await createRuntime({ root, mode: "host", journal: settingFor(backend), budget });
    const run = runtime.startRun({ id: `seq-${round}` });
    await run.call("lookup", { key: -1 });
    const start = performance.now();
    for (let i = 0; i < SEQUENTIAL; i++) await run.call("lookup", { key: i });
    perCall[backend].push(((performance.now() - start) * 1000) / SEQUENTIAL);
    runtime.close();
  }
}

// 2. Sustained, concurrent runs.
const sustained = {};
for (const backend of ["none", "sqlite", "file"]) {
  const runtime = await createRuntime({ root, mode: "host", journal: settingFor(backend), budget });
  const runs = Array.from({ length: CONCURRENT_RUNS }, (_, r) => runtime.startRun({ id: `conc-${r}` }));
  const start = performance.now();
  await Promise.all(
    runs.map(async (run, r) => {
      for (let i = 0; i < SUSTAINED / CONCURRENT_RUNS; i++) await run.call("lookup", { key: r * 1_000_000 + i });
    }),
  );
  sustained[backend] = Math.round(SUSTAINED / ((performance.now() - start) / 1000));
  runtime.close();
}

// 3. Resume of a 10,000-call run.
const resume = {};
for (const backend of ["sqlite", "file"]) {
  const recordedAt = settingFor(`${backend}-tmpfs`);
  const first = await createRuntime({ root, mode: "host", journal: recordedAt, budget });
  const run = first.startRun({ id: "long" });
  for (let i = 0; i < TOTAL; i++) await run.call("lookup", { key: i });
  first.close();
  const from = dirname(recordedAt.slice(recordedAt.indexOf(":") + 1));
  const to = join(root, `resume-${backend}`);
  cpSync(from, to, { recursive: true });
  const setting = `${backend}:${join(to, backend === "sqlite" ? "journal.db" : "journal.jsonl")}`;
  const start = performance.now();
  const runtime = await createRuntime({ root, mode: "host", journal: setting, budget });
  const resumed = runtime.startRun({ id: "long" });
  const firstReplay = await resumed.call("lookup", { key: 0 });
  const ready = performance.now() - start;
  if (!firstReplay.ok) throw new Error(`resume failed: ${JSON.stringify(firstReplay)}`);
  for (let i = 1; i < TOTAL; i++) await resumed.call("lookup", { key: i });
  const all = performance.now() - start;
  if (resumed.usage().calls !== TOTAL)
    throw new Error(`the resumed run counts ${resumed.usage().calls} calls, not ${TOTAL}`);
  resume[backend] = { firstCallMs: Math.round(ready * 10) / 10, replayAllMs: Math.round(all) };
  runtime.close();
}
rmSync(root, { recursive: true, force: true });
rmSync(shm, { recursive: true, force: true });

const us = (x) => Math.round(x * 10) / 10;
const none = median(perCall.none);
const result = {
  node: process.version,
  perCallUs: Object.fromEntries(BACKENDS.map((b) => [b, us(median(perCall[b]))])),
  overheadUs: Object.fromEntries(BACKENDS.filter((b) => b !== "none").map((b) => [b, us(median(perCall[b]) - none)])),
  calls: {
    sequentialPerRound: SEQUENTIAL,
    rounds: ROUNDS,
    sustained: SUSTAINED,
    concurrentRuns: CONCURRENT_RUNS,
    resumed: TOTAL,
  },
  sustainedCallsPerSecond: sustained,
  resume10000: resume,
};
console.log(JSON.stringify(result, null, 2));
