import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importClosure } from "../../scripts/import-closure.mjs";
import { runtimePackage } from "../../scripts/pack-runtime.mjs";
import { REPO_ROOT } from "../support/golden.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-import-closure-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("the runtime-only package (scripts/pack-runtime.mjs)", () => {
  it("depends on exactly what the built runtime imports by name: canonicalize, fast-glob and a bundled gpt-tokenizer; journal drivers are optional peers", () => {
    const { manifest, files } = runtimePackage(REPO_ROOT) as { manifest: Record<string, unknown>; files: string[] };
    expect(manifest.name).toBe("cave-runtime");
    expect(manifest.dependencies).toEqual({ canonicalize: "~4.0.0", "fast-glob": "^3.3.3", "gpt-tokenizer": "4.0.0" });
    expect(manifest.bundleDependencies).toEqual(["gpt-tokenizer"]);
    expect(manifest.peerDependenciesMeta).toEqual({ "better-sqlite3": { optional: true }, pg: { optional: true } });
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/runtime/index.d.ts", default: "./dist/runtime/index.js" },
    });
    expect(files).toContain("dist/runtime/index.js");
    // The script the entry loads, its code cache, and the module that makes its import() calls.
    expect(files).toContain("dist/runtime/bundle.cjs");
    expect(files).toContain("dist/runtime/bundle.cjs.v8cache");
    expect(files).toContain("dist/runtime/loading/import-module.js");
    expect(files).toContain("dist/runtime/results/engine.js");
    expect(files).toContain("dist/runtime/index.d.ts");
    // The layer rule, on what ships: nothing of the compiler, the adapters or the SDK's build side.
    expect(files.filter((file) => !file.startsWith("dist/runtime/") && !file.startsWith("dist/src/contract/"))).toEqual(
      [],
    );
  });
});

describe("importClosure (scripts/import-closure.mjs)", () => {
  it("follows static, dynamic and declaration imports and names the packages, ignoring comments and builtins", () => {
    const dir = tree({
      "a.js": [
        `import { b } from "./b.js";`,
        `// import("./not-made.js") in a comment`,
        `/** import("./x.wasm") */`,
        `const fg = createRequire(import.meta.url)("fast-glob");`,
        `import("./lazy/c.js");`,
        `import "node:fs";`,
        `import "path";`,
      ].join("\n"),
      "b.js": `export { x } from "@scope/pkg/sub"; const req = createRequire(u); req("pg");`,
      "lazy/c.js": `export const c = await import("gpt-tokenizer/encoding/o200k_base");`,
      "a.d.ts": `import type { B } from "./b.js";`,
      "b.d.ts": `export type B = string;`,
    });
    const code = importClosure([join(dir, "a.js")]) as { files: string[]; packages: string[] };
    expect(code.files).toEqual([join(dir, "a.js"), join(dir, "b.js"), join(dir, "lazy", "c.js")]);
    expect(code.packages).toEqual(["@scope/pkg", "fast-glob", "gpt-tokenizer", "pg"]);
    expect((importClosure([join(dir, "a.d.ts")]) as { files: string[] }).files).toEqual([
      join(dir, "a.d.ts"),
      join(dir, "b.d.ts"),
    ]);
  });

  it("refuses a relative import that does not exist, naming the file and the import", () => {
    const dir = tree({ "a.js": `import "./gone.js";` });
    expect(() => importClosure([join(dir, "a.js")])).toThrow(
      `${join(dir, "a.js")} imports ./gone.js, which does not exist`,
    );
  });
});
