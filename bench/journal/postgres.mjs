// PostgreSQL journal benchmark (issue 18), side by side in one run:
//  1. per-call cost of a journaled call over the same call without a journal: no journal, SQLite on
//     the disk, PostgreSQL over loopback (the server's defaults: fsync and synchronous_commit on);
//     sequential calls of a small read tool, interleaved rounds, median of the rounds;
//  2. calls per second one host sustains: 16 runs calling concurrently, in one process;
//  3. the same with two hosts (two processes, 16 runs each) sharing the database, against one host in
//     a process of its own measured in the same run.
// Wall time; the machine is shared: read the ratios, and run it twice.
// Usage: npm run build && node bench/journal/postgres.mjs   (a server: CAVE_TEST_PG_URL, else .ci/postgres start)
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const { createRuntime } = await import(pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href);
const budget = { maxCalls: 1_000_000, maxWallMs: 3_600_000 };
const CONCURRENT_RUNS = 16;

/** One host's sustained load: `calls` calls over 16 concurrent runs named `<prefix>-<r>`; resolves with ms taken. */
async function sustain(root, setting, prefix, calls) {
  const runtime = await createRuntime({ root, mode: "host", journal: setting, budget });
  const runs = Array.from({ length: CONCURRENT_RUNS }, (_, r) => runtime.startRun({ id: `${prefix}-${r}` }));
  await Promise.all(runs.map((run) => run.call("lookup", { key: -1 })));
  const start = performance.now();
  await Promise.all(
    runs.map(async (run, r) => {
      for (let i = 0; i < calls / CONCURRENT_RUNS; i++) {
        const outcome = await run.call("lookup", { key: r * 1_000_000 + i });
        if (!outcome.ok) throw new Error(JSON.stringify(outcome).slice(0, 500));
      }
    }),
  );
  const ms = performance.now() - start;
  await runtime.close();
  return ms;
}

// A host process of part 3: node postgres.mjs --host <root> <setting> <prefix> <calls>
if (process.argv[2] === "--host") {
  const [root, setting, prefix, calls] = process.argv.slice(3);
  process.stdout.write(`${JSON.stringify({ ms: await sustain(root, setting, prefix, Number(calls)) })}\n`);
  process.exit(0);
}

const SEQUENTIAL = Number(process.env.CAVE_BENCH_SEQUENTIAL ?? 200);
const ROUNDS = 3;
const SUSTAINED = Number(process.env.CAVE_BENCH_SUSTAINED ?? 2_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const url =
  process.env.CAVE_TEST_PG_URL || execFileSync(join(repoRoot, ".ci/postgres"), ["start"], { encoding: "utf8" }).trim();
process.env.CAVE_BENCH_PG_URL = url;

const root = mkdtempSync(join(tmpdir(), "cave-pg-bench-"));
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

const schemas = [];
let fresh = 0;
const settingFor = (backend) => {
  if (backend === "none") return null;
  if (backend === "sqlite") return `sqlite:${join(root, `j${fresh++}`, "journal.db")}`;
  const schema = `bench_${process.pid}_${fresh++}`;
  schemas.push(schema);
  return `postgres:CAVE_BENCH_PG_URL?schema=${schema}`;
};
const BACKENDS = ["none", "sqlite", "postgres"];

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
    await runtime.close();
  }
}

// 2. Sustained, one host in this process.
const sustained = {};
for (const backend of BACKENDS)
  sustained[backend] = Math.round(
    SUSTAINED / ((await sustain(root, settingFor(backend), `one-${backend}`, SUSTAINED)) / 1000),
  );

// 3. Hosts in processes of their own sharing one schema: one host, then two at once (other run ids).
const hostProcess = (setting, prefix) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), "--host", root, setting, prefix, String(SUSTAINED)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out).ms) : reject(new Error(`host exited ${code}`))));
  });
const shared = settingFor("postgres");
const oneMs = await hostProcess(shared, "solo");
const twoMs = await Promise.all([hostProcess(shared, "a"), hostProcess(shared, "b")]);
const hosts = {
  oneHostCallsPerSecond: Math.round(SUSTAINED / (oneMs / 1000)),
  twoHostsCallsPerSecond: Math.round((2 * SUSTAINED) / (Math.max(...twoMs) / 1000)),
  twoHostsEachCallsPerSecond: twoMs.map((ms) => Math.round(SUSTAINED / (ms / 1000))),
};

const pg = await import(pathToFileURL(join(repoRoot, "node_modules/pg/lib/index.js")).href);
const pool = new pg.default.Pool({ connectionString: url, max: 1 });
for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await pool.end();
rmSync(root, { recursive: true, force: true });

const us = (x) => Math.round(x * 10) / 10;
const none = median(perCall.none);
console.log(
  JSON.stringify(
    {
      node: process.version,
      perCallUs: Object.fromEntries(BACKENDS.map((b) => [b, us(median(perCall[b]))])),
      overheadUs: Object.fromEntries(
        BACKENDS.filter((b) => b !== "none").map((b) => [b, us(median(perCall[b]) - none)]),
      ),
      calls: { sequentialPerRound: SEQUENTIAL, rounds: ROUNDS, sustained: SUSTAINED, concurrentRuns: CONCURRENT_RUNS },
      sustainedCallsPerSecond: sustained,
      hostProcesses: hosts,
    },
    null,
    2,
  ),
);
