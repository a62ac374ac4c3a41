// What `cave serve` (started by an MCP host that waits for it) loads before it answers: the CLI entry loads
// each command only when it runs, and serve loads only the transport it serves. Checked on the static import
// graph (esbuild's metafile; dynamic imports are the boundaries), not by timing.
import { join, relative, sep } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/golden.js";

const FRAMEWORKS = /^(@modelcontextprotocol\/|@hono\/|hono$|hono\/)/;

/** Every module reached from `entry` through static imports only (external packages as their specifier). */
async function staticGraph(entry: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [join(REPO_ROOT, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    splitting: true,
    outdir: "out",
    logLevel: "silent",
    absWorkingDir: REPO_ROOT,
    packages: "external",
    plugins: [
      {
        name: "frameworks-external",
        setup: (b) =>
          b.onResolve({ filter: /.*/ }, (args) =>
            FRAMEWORKS.test(args.path) ? { path: args.path, external: true } : undefined,
          ),
      },
    ],
  });
  const norm = (path: string) => relative(REPO_ROOT, join(REPO_ROOT, path)).split(sep).join("/");
  const inputs = new Map(Object.entries(result.metafile.inputs).map(([file, input]) => [norm(file), input]));
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of inputs.get(path)?.imports ?? []) {
      if (imported.kind !== "import-statement") continue;
      queue.push(imported.external ? imported.path : norm(imported.path));
    }
  }
  return seen;
}

describe("what cave serve loads", () => {
  it("the CLI entry statically loads no command: not the compiler, TypeScript, esbuild or the globber", async () => {
    const graph = [...(await staticGraph("compiler/cli/bin.ts"))];
    expect(graph).toContain("compiler/cli/main.ts");
    expect(graph).toContain("compiler/cli/usage-lines.ts");
    expect(
      graph.filter(
        (path) =>
          path.startsWith("compiler/cli/commands/") ||
          /^(typescript|esbuild|ts-morph|fast-glob)$/.test(path) ||
          (path.startsWith("compiler/") && !path.startsWith("compiler/cli/")),
      ),
    ).toEqual([]);
  });

  it("the serve command loads no transport statically, and the stdio transport does not load the HTTP one", async () => {
    const serve = [...(await staticGraph("compiler/cli/commands/serve.ts"))];
    expect(serve.filter((path) => path.startsWith("adapters/") || FRAMEWORKS.test(path))).toEqual([]);
    const stdio = [...(await staticGraph("adapters/mcp/stdio.ts"))];
    expect(stdio).toContain("@modelcontextprotocol/sdk/server/stdio.js");
    expect(stdio.filter((path) => path === "adapters/mcp/http.ts" || /streamableHttp|@hono/.test(path))).toEqual([]);
  });
});
