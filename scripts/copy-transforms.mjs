// Copies the result transforms (compiler/results/transforms/*.mjs) into dist/ byte for byte: the lock pins the
// sha256 of their text, and tsc, which emits JavaScript it reads, would reprint them. Run after tsc (npm run build does).
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const from = join(repoRoot, "compiler", "results", "transforms");
const to = join(repoRoot, "dist", "compiler", "results", "transforms");
mkdirSync(to, { recursive: true });
const files = readdirSync(from)
  .filter((name) => name.endsWith(".mjs"))
  .sort();
for (const name of files) copyFileSync(join(from, name), join(to, name));
console.log(`copy-transforms: ${files.length} result transforms copied into dist/compiler/results/transforms/`);
