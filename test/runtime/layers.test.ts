import { join, relative, sep } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/golden.js";

describe("layer rule", () => {
  it("the runtime entry pulls in no compiler, ts-morph, esbuild, Ajv or TypeBox, and only src/contract from src/", async () => {
    const result = await build({
      entryPoints: [join(REPO_ROOT, "runtime/index.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      absWorkingDir: REPO_ROOT,
    });
    const inputs = Object.keys(result.metafile.inputs).map((path) =>
      relative(REPO_ROOT, join(REPO_ROOT, path)).split(sep).join("/"),
    );
    expect(inputs).toContain("runtime/create-runtime.ts");
    const forbidden = inputs.filter(
      (path) =>
        /^compiler\//.test(path) ||
        /(^|\/)node_modules\/(ts-morph|esbuild|ajv|ajv-formats|@sinclair\/typebox|typescript)\//.test(path) ||
        (/^src\//.test(path) && !/^src\/contract\//.test(path)),
    );
    expect(forbidden).toEqual([]);
    // What the runtime does depend on, outside itself: the contract leaf modules, canonicalize and the
    // pinned tokenizer of result plans (loaded only when a plan counts tokens).
    const outside = [
      ...new Set(
        inputs
          .filter((path) => !path.startsWith("runtime/"))
          .map((path) => path.replace(/^(node_modules\/[^/]+)\/.*$/, "$1")),
      ),
    ].sort();
    expect(
      outside.every(
        (path) =>
          path.startsWith("src/contract/") ||
          path === "node_modules/canonicalize" ||
          path === "node_modules/gpt-tokenizer",
      ),
    ).toBe(true);
  });
});

describe("adapter layer", () => {
  const ENTRIES = ["adapters/mcp/index.ts", "adapters/ai-sdk/index.ts", "adapters/openai-agents/index.ts"];
  const FRAMEWORKS = /^(@modelcontextprotocol\/|ai$|ai\/|@ai-sdk\/|@openai\/)/;

  it("adapters sit above the runtime: they import it only through runtime/index.ts, and never the compiler or src/ beyond the contract", async () => {
    const result = await build({
      entryPoints: ENTRIES.map((entry) => join(REPO_ROOT, entry)),
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      outdir: "out",
      logLevel: "silent",
      absWorkingDir: REPO_ROOT,
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
    const inputs = result.metafile.inputs;
    const problems: string[] = [];
    for (const [file, input] of Object.entries(inputs)) {
      const path = relative(REPO_ROOT, join(REPO_ROOT, file)).split(sep).join("/");
      if (/^compiler\//.test(path) || (/^src\//.test(path) && !/^src\/contract\//.test(path)))
        problems.push(`${path} is in an adapter's graph`);
      if (!path.startsWith("adapters/")) continue;
      for (const imported of input.imports) {
        const target = relative(REPO_ROOT, join(REPO_ROOT, imported.path)).split(sep).join("/");
        if (imported.external || target.startsWith("adapters/")) continue;
        if (target !== "runtime/index.ts")
          problems.push(`${path} imports ${target}; adapters use the runtime's public API (runtime/index.ts) only`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("the runtime never imports an adapter or a framework", async () => {
    const result = await build({
      entryPoints: [join(REPO_ROOT, "runtime/index.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      absWorkingDir: REPO_ROOT,
    });
    const inputs = Object.keys(result.metafile.inputs).map((path) =>
      relative(REPO_ROOT, join(REPO_ROOT, path)).split(sep).join("/"),
    );
    expect(
      inputs.filter(
        (path) =>
          path.startsWith("adapters/") || /node_modules\/(@modelcontextprotocol|ai|@ai-sdk|@openai)\//.test(path),
      ),
    ).toEqual([]);
  });
});
