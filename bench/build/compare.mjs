// Compares two cave checkouts on the same generated project, in one run (issue 11: the shared SDK module): the build
// folder's size and file count after a cold build, and the cold build's time (no caches, no folder, no lock).
// Usage: npm run build && node bench/build/compare.mjs <other checkout, built> [modules=1000] [runs=3]
// Each checkout needs dist/ (npm run build). Runs alternate between the two so load drifts hit both alike.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { folderSize } from "../folder-size.mjs";
import { generateProject } from "./generate.mjs";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const other = process.argv[2] ? resolve(process.argv[2]) : undefined;
if (other === undefined) throw new Error("usage: node bench/build/compare.mjs <other checkout> [modules] [runs]");
const n = Number(process.argv[3] ?? 1000);
const runs = Number(process.argv[4] ?? 3);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const checkouts = [
  { name: "this checkout", root: here },
  { name: "other checkout", root: other },
];
const results = new Map(checkouts.map((c) => [c.name, { cold: [], size: undefined }]));
const project = mkdtempSync(join(tmpdir(), `cave-compare-${n}-`));
const load = [loadavg()[0]];
try {
  generateProject(project, n, here);
  for (let r = 0; r < runs; r++) {
    for (const checkout of r % 2 === 0 ? checkouts : [...checkouts].reverse()) {
      rmSync(join(project, "node_modules", ".cache", "cave"), { recursive: true, force: true });
      rmSync(join(project, ".cave"), { recursive: true, force: true });
      rmSync(join(project, "cave.lock"), { force: true });
      const start = process.hrtime.bigint();
      // The build API in a process of its own (start-up included), with a generous evaluation time limit: on a loaded
      // machine importing agents.ts (which imports all N tools) can take longer than the CLI's 10 s default.
      const script = `const { build } = await import(${JSON.stringify(join(checkout.root, "dist", "compiler", "index.js"))}); const r = await build({ root: ${JSON.stringify(project)}, evaluateTimeoutMs: 300000 }); if (!r.ok) { console.error(JSON.stringify(r.diagnostics)); process.exit(1); }`;
      execFileSync(process.execPath, ["--input-type=module", "--eval", script], {
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, CI: "" },
      });
      const entry = results.get(checkout.name);
      entry.cold.push(Number(process.hrtime.bigint() - start) / 1e6);
      entry.size = folderSize(join(project, ".cave"));
    }
  }
  load.push(loadavg()[0]);
} finally {
  rmSync(project, { recursive: true, force: true });
}
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `node ${process.version}; ${n} modules; median of ${runs} cold builds each (build() in a fresh process), alternating; load average ${load.map((x) => x.toFixed(2)).join(" -> ")}`,
);
console.log("| checkout | build folder | files | cold build | runs |");
console.log("|---|---|---|---|---|");
for (const { name, root } of checkouts) {
  const { cold, size } = results.get(name);
  console.log(
    `| ${name} (${root}) | ${mb(size.bytes)} | ${size.files} | ${s(median(cold))} | ${cold.map(s).join(", ")} |`,
  );
}
const [a, b] = checkouts.map(({ name }) => results.get(name));
console.log(
  `this / other: folder ${(a.size.bytes / b.size.bytes).toFixed(3)}, cold build ${(median(a.cold) / median(b.cold)).toFixed(3)}`,
);
