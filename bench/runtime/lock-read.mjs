// Issue 20's lock v2: what start-up pays to verify a lock of N tools, and what a tool's first use pays, side by side in
// one process (rounds interleaved, medians, CPU time):
//  - v1 (with --baseline: the previous commit's runtime, built): readLock's fast path on the same lock written as v1 (a
//    WebAssembly compaction scan, one sha256 of the compact bytes, the top level parsed, entries behind a Proxy);
//  - v1 parse + hash: JSON.parse of the whole v1 lock and one sha256 of its bytes (the simplest v1 design);
//  - v2 start-up: this runtime's readLock (the header alone parsed and hashed; no entry read);
//  - v2 start-up, lock reformatted: the same lock minified, which readLock parses whole (the general path);
//  - v2 first use of one tool: tool(name) on a lock just read (finding the entries, parsing and hashing one);
//  - v2 every tool once: tool(name) for every tool (what describeTools() or a first call of each costs in total).
// The lock: a built project's cave.lock, or with --synthetic N, cave.lock.example's tools and copies of them up to N
// tools (each entry as built; copies renamed) and sealed as cave build seals (src/contract/lock-seal.ts); start-up reads no other file.
// Usage: npm run build && node bench/runtime/lock-read.mjs [--baseline <checkout with dist/>] (--synthetic N | <built project root>)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { interleavedMedians } from "./interleaved.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const baseline = option("--baseline");
const synthetic = option("--synthetic");
const root = args[0];
if (synthetic === undefined && root === undefined)
  throw new Error("usage: node bench/runtime/lock-read.mjs [--baseline DIR] (--synthetic N | <built project root>)");
const ROUNDS = 9;
const load = (base, path) => import(pathToFileURL(join(base, "dist", ...path.split("/"))).href);
const { readLock } = await load(repoRoot, "runtime/lock/read-lock.js");
const { hashJson, sha256 } = await load(repoRoot, "src/contract/hash.js");
const { sealLock } = await load(repoRoot, "src/contract/lock-seal.js");
const { osLayerTools } = await load(repoRoot, "runtime/sandbox/os-only.js");
const readLockV1 = baseline === undefined ? undefined : (await load(baseline, "runtime/lock/read-lock.js")).readLock;

const render = (lock) => `${JSON.stringify(lock, null, 2)}\n`;
let v2;
if (synthetic !== undefined) {
  const example = JSON.parse(readFileSync(join(repoRoot, "cave.lock.example"), "utf8"));
  const entries = Object.values(example.tools);
  // The example's own tools (their nested tools name each other), then copies under new names up to N.
  const tools = { ...example.tools };
  for (let i = entries.length; i < Number(synthetic); i++)
    tools[`tool_${String(i).padStart(5, "0")}`] = entries[i % entries.length];
  const { integrity: _i, toolHashes: _h, tools: _t, ...rest } = example;
  // No agents: theirs name the example's tools.
  v2 = sealLock({ ...rest, agents: {}, osLayerTools: osLayerTools(tools), tools });
} else v2 = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));

/** The same lock as cave build wrote v1: no toolHashes or osLayerTools, empty optional fields absent, one hash over all. */
function asV1(lock) {
  const tools = {};
  for (const [name, tool] of Object.entries(lock.tools)) {
    const { egress, secrets, fs, addons, ...sandbox } = tool.sandbox;
    const { assets, externals, ...source } = tool.source;
    tools[name] = {
      ...tool,
      sandbox: {
        ...sandbox,
        ...(egress.length > 0 ? { egress } : {}),
        ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
        ...(fs !== null ? { fs } : {}),
        ...(addons ? { addons } : {}),
      },
      source: { ...source, ...(assets.length > 0 ? { assets } : {}), ...(externals.length > 0 ? { externals } : {}) },
    };
  }
  const { integrity: _i, toolHashes: _h, osLayerTools: _o, externals, ...rest } = lock;
  const pins = Object.fromEntries(
    Object.entries(externals).map(([path, { optional: _optional, ...pin }]) => [path, pin]),
  );
  const body = { ...rest, lockfileVersion: 1, tools, ...(Object.keys(pins).length > 0 ? { externals: pins } : {}) };
  return { ...body, integrity: hashJson(body) };
}

const dir = mkdtempSync(join(tmpdir(), "cave-lock-read-"));
const paths = { v2: join(dir, "v2.lock"), v2min: join(dir, "v2-min.lock"), v1: join(dir, "v1.lock") };
writeFileSync(paths.v2, render(v2));
writeFileSync(paths.v2min, JSON.stringify(v2));
const v1 = asV1(v2);
// Keys sorted, as cave build wrote v1 (its reader's fast path needs the canonical order).
const sorted = (value) =>
  Array.isArray(value)
    ? value.map(sorted)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sorted(value[k])]),
        )
      : value;
writeFileSync(paths.v1, render(sorted(v1)));
const names = Object.keys(v2.tools).sort();
const first = names[Math.floor(names.length / 2)];

const sides = {
  ...(readLockV1 === undefined
    ? {}
    : { "v1: WebAssembly scan + Proxy (baseline)": async () => readLockV1(paths.v1, "cave.lock") }),
  "v1: JSON.parse whole + one sha256": async () => {
    const text = readFileSync(paths.v1);
    JSON.parse(text.toString("utf8"));
    return sha256(text);
  },
  "v2 start-up: header only": async () => readLock(paths.v2, "cave.lock"),
  "v2 start-up, lock minified (parsed whole)": async () => readLock(paths.v2min, "cave.lock"),
  "v2 start-up + first use of one tool": async () => (await readLock(paths.v2, "cave.lock")).tool(first),
  "v2 start-up + every tool once": async () => {
    const lock = await readLock(paths.v2, "cave.lock");
    for (const name of names) lock.tool(name);
  },
};

const medians = await interleavedMedians(sides, ROUNDS);
const size = (path) => (readFileSync(path).length / 1e6).toFixed(2);
const headerKb = (readFileSync(paths.v2).indexOf('\n  "tools": {') / 1e3).toFixed(0);
console.log(
  `node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      " ",
    )}; ${names.length} tools, v2 lock ${size(paths.v2)} MB (header ${headerKb} KB), v1 lock ${size(paths.v1)} MB\n`,
);
const reference = medians[Object.keys(sides)[0]];
console.log(`| lock verification | median CPU | / ${Object.keys(sides)[0]} |`);
console.log("| --- | ---: | ---: |");
for (const [name, ms] of Object.entries(medians))
  console.log(`| ${name} | ${ms.toFixed(2)} ms | ${(ms / reference).toFixed(3)} |`);
rmSync(dir, { recursive: true, force: true });
