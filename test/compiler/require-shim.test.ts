// A bundle defines `require` (createRequire, ~0.7 ms of a cold first call) only when its code names it: esbuild's ESM
// output of a CommonJS package calls `__require`, which needs it; code that never names it cannot reach the binding.
import { describe, expect, it } from "vitest";
import { finishBundle, requireShimFor } from "../../compiler/stage/bundle-file.js";

const SHIM_IMPORT = 'import { createRequire as __caveCreateRequire } from "node:module";';

describe("the require shim", () => {
  it("is added where the code names require, in any form, and nowhere else", () => {
    expect(requireShimFor('var __require = typeof require !== "undefined" ? require : null;')).toContain(SHIM_IMPORT);
    expect(requireShimFor("const p = require.resolve('x');")).toContain(SHIM_IMPORT);
    expect(requireShimFor("// require\n")).toContain(SHIM_IMPORT);
    expect(requireShimFor('const required = ["a"]; const requires = 1; const requireX = 2;')).toBe("");
    expect(requireShimFor("export const x = 1;\n")).toBe("");
  });

  it("is what finishBundle puts in front of esbuild's output, before the code it serves", () => {
    const plain = finishBundle("tools/a.ts", "../sdk/cave.mjs", "var required = 1;\nexport { required };\n");
    expect(plain).toBeDefined();
    expect(plain).not.toContain("createRequire");
    const cjs = finishBundle(
      "tools/b.ts",
      "../sdk/cave.mjs",
      'var fs = __require("node:fs");\nvar __require = require;\n',
    );
    expect(cjs!.indexOf(SHIM_IMPORT)).toBeGreaterThanOrEqual(0);
    expect(cjs!.indexOf(SHIM_IMPORT)).toBeLessThan(cjs!.indexOf("__require("));
  });
});
