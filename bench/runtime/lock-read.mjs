// Issue 20's lock v2 question, measured before any format change: what start-up pays to verify a lock, on the
// N-tool lock of a built project, side by side in one process (rounds interleaved, medians), CPU time:
//  - today: readLock's fast path (the WebAssembly compaction scan, one sha256 of the compact bytes, the top level
//    parsed, entries left unparsed behind a Proxy);
//  - parse + hash: JSON.parse of the whole file and one sha256 of its bytes (the simplest design: no scan);
//  - manifest only: JSON.parse and sha256 of a manifest of per-tool hashes alone ({ name: sha256 } for every
//    tool, what a v2 start-up would verify), plus, per tool on first use, sha256 of its entry's canonical text
//    (measured for one tool).
// Usage: npm run build && node bench/runtime/lock-read.mjs <built project root>
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const root = process.argv[2];
if (root === undefined) throw new Error("usage: node bench/runtime/lock-read.mjs <built project root>");
const ROUNDS = 9;
const { readLock } = await import(pathToFileURL(join(repoRoot, "dist", "runtime", "lock", "read-lock.js")).href);
const { canonicalJson, sha256 } = await import(pathToFileURL(join(repoRoot, "dist", "src", "contract", "hash.js")).href);

const path = join(root, "cave.lock");
const bytes = readFileSync(path);
const parsed = JSON.parse(bytes.toString("utf8"));
const names = Object.keys(parsed.tools);
const manifest = JSON.stringify(Object.fromEntries(names.map((name) => [name, sha256(canonicalJson(parsed.tools[name]))])));
const firstEntry = canonicalJson(parsed.tools[names[0]]);

const sides = {
  today: async () => readLock(path, "cave.lock"),
  parseAndHash: async () => {
    const text = readFileSync(path);
    JSON.parse(text.toString("utf8"));
    return sha256(text);
  },
  manifestOnly: async () => {
    JSON.parse(manifest);
    return sha256(manifest);
  },
  oneEntryOnFirstUse: async () => sha256(firstEntry),
};

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const times = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
for (const side of Object.values(sides)) await side();
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, side] of Object.entries(sides)) {
    const t = cpuMs();
    await side();
    times[name].push(cpuMs() - t);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${names.length} tools, lock ${(bytes.length / 1e6).toFixed(2)} MB, manifest ${(manifest.length / 1e3).toFixed(0)} KB\n`);
console.log("| start-up verification | median CPU | / today |");
console.log("| --- | ---: | ---: |");
const today = median(times.today);
for (const [name, xs] of Object.entries(times)) console.log(`| ${name} | ${median(xs).toFixed(2)} ms | ${(median(xs) / today).toFixed(2)} |`);
