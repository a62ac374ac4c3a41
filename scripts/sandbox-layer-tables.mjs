// Rewrites the measured per-version tables of docs/sandbox.md ("Which layer stops what"): runs
// test/sandbox/layer-table.test.ts under each given Node binary with CAVE_UPDATE_GOLDEN=1, in order.
// The test measures; this only runs it. Usage (as root, so the network namespace column is measured):
//   node scripts/sandbox-layer-tables.mjs /usr/bin/node ~/.cache/cave/node/22.23.5/bin/node ...
// .ci/node-install prints the folder of a pinned Node (bin/node inside).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const nodes = process.argv.slice(2);
if (nodes.length === 0) {
  console.error("usage: node scripts/sandbox-layer-tables.mjs <node binary>...");
  process.exit(2);
}
for (const node of nodes) {
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
  console.log(`== ${version} (${node})`);
  // The test loads no native addon, so one node_modules serves every version here.
  const result = spawnSync(
    node,
    [join(root, "node_modules/vitest/vitest.mjs"), "run", "test/sandbox/layer-table.test.ts"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, CAVE_UPDATE_GOLDEN: "1", PATH: `${dirname(node)}:${process.env.PATH ?? ""}` },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
