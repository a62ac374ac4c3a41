// The lock's shape check at N tools (issue 21 item 2: the check compiled ahead from docs/cave.lock.schema.json against
// the hand-written one it replaced), side by side in one process (rounds interleaved, medians of CPU time):
//  - the header's check, what start-up runs (checkLockTopShape);
//  - every tool entry's check once, what the first use of each tool runs (checkToolShape);
//  - start-up as a whole (readLock: the header read, hashed and checked) and start-up + every tool once.
// With --baseline DIR, the same rows for another checkout's build (its dist/), e.g. the commit before the change.
// The lock: cave.lock.example's tools and copies of them up to N (default 1,000), sealed as cave build seals.
// Usage: npm run build && node bench/runtime/lock-check.mjs [--baseline <checkout with dist/>] [--tools N]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { interleavedMedians } from "./interleaved.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const baseline = option("--baseline");
const count = Number(option("--tools") ?? 1000);
const ROUNDS = 15;
const load = (base, path) => import(pathToFileURL(join(base, "dist", ...path.split("/"))).href);
const { sealLock } = await load(repoRoot, "src/contract/lock-seal.js");
const { osLayerTools } = await load(repoRoot, "runtime/sandbox/os-only.js");

const example = JSON.parse(readFileSync(join(repoRoot, "cave.lock.example"), "utf8"));
const entries = Object.values(example.tools);
const tools = { ...example.tools };
for (let i = entries.length; i < count; i++) tools[`tool_${String(i).padStart(5, "0")}`] = entries[i % entries.length];
const { integrity: _i, toolHashes: _h, tools: _t, ...rest } = example;
const lock = sealLock({ ...rest, agents: {}, osLayerTools: osLayerTools(tools), tools });
const { tools: lockTools, ...header } = lock;
const names = Object.keys(lockTools).sort();
const locked = new Set(names);
const dir = mkdtempSync(join(tmpdir(), "cave-lock-check-"));
const path = join(dir, "cave.lock");
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);

const sides = {};
for (const [label, base] of [["now", repoRoot], ...(baseline === undefined ? [] : [["baseline", baseline]])]) {
  const { checkLockTopShape, checkToolShape } = await load(base, "runtime/lock/check-shape.js");
  const { readLock } = await load(base, "runtime/lock/read-lock.js");
  sides[`${label}: header check (start-up)`] = () => {
    if (checkLockTopShape(header, locked) !== undefined) throw new Error("the header should pass");
  };
  sides[`${label}: every entry's check once`] = () => {
    for (const name of names)
      if (checkToolShape(name, lockTools[name], locked) !== undefined) throw new Error(`${name} should pass`);
  };
  sides[`${label}: readLock (start-up)`] = async () => readLock(path, "cave.lock");
  sides[`${label}: readLock + every tool once`] = async () => {
    const read = await readLock(path, "cave.lock");
    for (const name of names) read.tool(name);
  };
}

const medians = await interleavedMedians(sides, ROUNDS);
console.log(
  `node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}; ${names.length} tools\n`,
);
console.log("| lock check | median CPU |");
console.log("| --- | ---: |");
for (const [name, ms] of Object.entries(medians)) console.log(`| ${name} | ${ms.toFixed(2)} ms |`);
rmSync(dir, { recursive: true, force: true });
