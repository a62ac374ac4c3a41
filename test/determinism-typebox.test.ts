// Issue 11, item 7: another TypeBox installed in the project (a different `@sinclair/typebox`, and the `typebox`
// package) changes no bundle and not the lock: the SDK's TypeBox is staged from cave's own install, and a project
// that does not import TypeBox itself has nothing of it in its graphs.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../compiler/build.js";
import { removeCopies, toolModule, writeProject } from "./support/projects.js";

afterAll(removeCopies);

/** Every file of the build folder, by path, with its bytes. */
function folder(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path));
    }
  };
  walk(join(root, ".cave"));
  return out;
}

function install(root: string, name: string, version: string): void {
  const dir = join(root, "node_modules", ...name.split("/"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name, version, type: "module", exports: "./index.js" })}\n`,
  );
  // Shaped like TypeBox's entry point, so a resolver that wrongly picked it would stage something that runs.
  writeFileSync(
    join(dir, "index.js"),
    `export const Kind = Symbol.for("TypeBox.Kind");\nexport const Type = { String: () => ({ [Kind]: "String", type: "string", version: ${JSON.stringify(version)} }) };\n`,
  );
}

describe("another TypeBox in the project", () => {
  it("changes no bundle, no build-folder file and not the lock (two cold builds, one with it installed)", async () => {
    const files = { "tools/a.ts": toolModule("alpha"), "tools/b.ts": toolModule("beta") };
    const plain = writeProject(files, { nodeModules: false });
    const withTypeBox = writeProject(files, { nodeModules: false });
    install(withTypeBox, "@sinclair/typebox", "0.31.28");
    install(withTypeBox, "typebox", "1.0.15");
    for (const root of [plain, withTypeBox])
      expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(readFileSync(join(withTypeBox, "cave.lock"), "utf8")).toBe(readFileSync(join(plain, "cave.lock"), "utf8"));
    const built = folder(plain);
    expect([...built.keys()].filter((path) => path.endsWith(".mjs")).length).toBeGreaterThan(2);
    expect(folder(withTypeBox)).toEqual(built);
  });
});
