// Result-plan benchmark (issue 6): overhead of result handling for 1 KB / 100 KB / 10 MB results
// (serialise, bound, count, page, store and verify, whole plans) and the token savings of each
// transform on realistic payloads, side by side in one run. Usage: node bench/results/run.mjs
// The TypeScript body is bundled with esbuild next to node_modules, so gpt-tokenizer resolves as at run time.
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const outfile = join(repoRoot, "node_modules", ".cache", "cave-bench-results", "measure.mjs");
mkdirSync(dirname(outfile), { recursive: true });
await build({
  entryPoints: [join(repoRoot, "bench", "results", "measure.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile,
  external: ["gpt-tokenizer", "gpt-tokenizer/*", "canonicalize"],
  logLevel: "warning",
});
await import(pathToFileURL(outfile).href);
