import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../src/contract/hash.js";

let memo: string | undefined;

/**
 * What identifies this compiler for the build cache: the hash of its own code (source or compiled, wherever
 * it runs from) and of the versions of the tools that shape the output. A new compiler never reuses an old cache.
 */
export function compilerIdentity(packageRoot: string): string {
  if (memo) return memo;
  const parts: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
        parts.push(`${path.slice(packageRoot.length)}:${sha256(readFileSync(path))}`);
    }
  };
  for (const dir of [
    "src",
    "compiler",
    "runtime",
    join("dist", "src"),
    join("dist", "compiler"),
    join("dist", "runtime"),
  ])
    walk(join(packageRoot, dir));
  for (const pkg of ["esbuild", "ajv", "ajv-formats", "typescript", "@sinclair/typebox", "recheck"]) {
    try {
      parts.push(
        `${pkg}@${JSON.parse(readFileSync(join(packageRoot, "node_modules", pkg, "package.json"), "utf8")).version}`,
      );
    } catch {
      parts.push(`${pkg}@?`);
    }
  }
  parts.push(process.version);
  memo = sha256(parts.join("\n"));
  return memo;
}
