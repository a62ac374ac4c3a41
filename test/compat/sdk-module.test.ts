// Issue 11, item 1: the SDK is one module every bundle imports, not a prelude concatenated in front of each.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { sha256 } from "../../src/contract/hash.js";
import { copyWorkspace, removeWorkspaceCopies } from "./workspace.js";

afterAll(removeWorkspaceCopies);

describe("lodash-es (a top-level `var Symbol`) builds and runs", () => {
  it("in both sandbox modes, the bundle importing the one SDK module the lock pins", async () => {
    const root = copyWorkspace(["lodash-es.ts"]);
    const result = await build({ root });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const lock = result.lock!;
    const sdkModule = lock.sdk!.module!;
    expect(sdkModule.path).toBe(".cave/sdk/cave.mjs");
    expect(sdkModule.sha256).toBe(sha256(readFileSync(join(root, sdkModule.path))));
    const bundle = readFileSync(join(root, lock.tools.lodash_es!.source.bundle), "utf8");
    expect(bundle).toContain('from "../../sdk/cave.mjs";');
    // The SDK's code is not in the bundle: its TypeBox is only in the SDK module.
    expect(bundle).not.toContain("TypeBox");

    const runtime = await createRuntime({ root, mode: "host" });
    try {
      const items = [
        { kind: "a", n: 2 },
        { kind: "b", n: 3 },
        { kind: "a", n: 5 },
      ];
      for (const name of ["lodash_es", "lodash_es_host"]) {
        expect(await runtime.call(name, { items })).toMatchObject({
          ok: true,
          content: { total: 10, kinds: ["a", "b"] },
        });
      }
    } finally {
      runtime.close();
    }
  });
});
