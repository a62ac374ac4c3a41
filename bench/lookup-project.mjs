// The small one-file project the runtime and sandbox benchmarks call: tools that read a refund
// window, with small input and output schemas, one per requested name and sandbox setting.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One tool's source lines. */
const tool = (name, sandbox) => [
  `export const ${name} = tool({`,
  `  name: ${JSON.stringify(name)},`,
  `  description: "Read the refund window of a region.",`,
  `  input: schema.object({ region: schema.string({ minLength: 2, maxLength: 8 }) }),`,
  `  output: schema.object({ region: schema.string(), days: schema.number() }),`,
  `  effect: "read",`,
  `  sandbox: ${JSON.stringify(sandbox)},`,
  `  allowRepeat: true,`,
  `  execute({ region }) {`,
  `    return { region, days: 14 };`,
  `  },`,
  `});`,
];

/**
 * Writes tools/lookup.ts with the given [name, sandbox] tools into `root` (an existing folder), links
 * this checkout's node_modules, and builds it with the CLI under the Node running this process.
 */
export function buildLookupProject(root, repoRoot, tools) {
  mkdirSync(join(root, "tools"));
  writeFileSync(
    join(root, "tools", "lookup.ts"),
    [`import { schema, tool } from "cave";`, ...tools.flatMap(([name, sandbox]) => tool(name, sandbox)), ""].join("\n"),
  );
  symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
  execFileSync(
    process.execPath,
    [join(repoRoot, "dist", "compiler", "cli", "bin.js"), "build", "--write", "--root", root],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}
