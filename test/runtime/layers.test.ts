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
    const inputs = Object.keys(result.metafile.inputs).map((path) => relative(REPO_ROOT, join(REPO_ROOT, path)).split(sep).join("/"));
    expect(inputs).toContain("runtime/create-runtime.ts");
    const forbidden = inputs.filter((path) =>
      /^compiler\//.test(path) ||
      /(^|\/)node_modules\/(ts-morph|esbuild|ajv|ajv-formats|@sinclair\/typebox|typescript)\//.test(path) ||
      (/^src\//.test(path) && !/^src\/contract\//.test(path)),
    );
    expect(forbidden).toEqual([]);
    // What the runtime does depend on, outside itself: the contract leaf modules, canonicalize and the
    // pinned tokenizer of result plans (loaded only when a plan counts tokens).
    const outside = [...new Set(inputs.filter((path) => !path.startsWith("runtime/")).map((path) => path.replace(/^(node_modules\/[^/]+)\/.*$/, "$1")))].sort();
    expect(outside.every((path) => path.startsWith("src/contract/") || path === "node_modules/canonicalize" || path === "node_modules/gpt-tokenizer")).toBe(true);
  });
});
