import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyse } from "../../compiler/analyse/index.js";
import { mentioningCave } from "../../compiler/analyse/candidates.js";
import { discover } from "../../compiler/discover/index.js";
import { bundleAhead, stage } from "../../compiler/stage/index.js";
import { REPO_ROOT } from "../support/golden.js";
import { copyProject, removeCopies, STAGE_CONFIG, toolModule, writeProject } from "../support/projects.js";

afterAll(removeCopies);

const project = writeProject;

const CONFIG = STAGE_CONFIG;

/** Stages the modules analysis names, alone and with everything that mentions "cave" bundled ahead. */
async function bothWays(root: string) {
  const found = await discover(root);
  const analysed = analyse(root, found.files);
  const candidates = await mentioningCave(root, found.files);
  const ahead = await bundleAhead(root, candidates, found.config);
  const alone = await stage(root, analysed.modules, found.config);
  const reused = await stage(root, analysed.modules, found.config, ahead);
  return { analysed, candidates, ahead, alone, reused };
}

describe("bundling ahead of analysis", () => {
  it("stages exactly what stage alone stages, from a superset of the modules (the example)", async () => {
    const { analysed, candidates, ahead, alone, reused } = await bothWays(copyProject("examples/support-desk"));
    expect(ahead).toBeDefined();
    expect(candidates.length).toBeGreaterThan(analysed.modules.length); // lib/ files import "cave" without defining tools
    expect(alone.diagnostics).toEqual([]);
    expect(reused).toEqual(alone);
  });

  it("keeps what only an extra module reads out of the result: its warning, its files, its hashes", async () => {
    const root = project({
      "tools/orders.ts": toolModule(
        "lookupOrder",
        'import { label } from "../lib/label.js";\nexport const title = label("orders");',
      ),
      "lib/label.ts": "export const label = (text: string) => `[${text}]`;\n",
      // Mentions "cave" but defines nothing: bundled ahead, never staged. esbuild warns about it.
      "lib/odd.ts":
        'import { schema } from "cave";\nimport { extra } from "./extra.js";\nexport const odd = (n: number) => n === NaN || schema === undefined || extra;\n',
      "lib/extra.ts": "export const extra = 1;\n",
    });
    const { candidates, ahead, alone, reused } = await bothWays(root);
    expect(candidates).toEqual(["lib/odd.ts", "tools/orders.ts"]);
    expect(ahead).toBeDefined();
    expect(ahead!.built.warnings.length).toBeGreaterThan(0);
    expect(alone.diagnostics).toEqual([]);
    expect(reused).toEqual(alone);
    expect([...reused.inputFiles.keys()].some((file) => file.endsWith("extra.ts") || file.endsWith("odd.ts"))).toBe(
      false,
    );
  });

  it("does not use it when a warning is located in a file that is not an input (here tsconfig.json)", async () => {
    const root = project({
      "tools/orders.ts": toolModule("lookupOrder"),
      "lib/extra.ts": 'import { schema } from "cave";\nexport const s = schema;\n',
      "tsconfig.json": '{ "compilerOptions": { "strict": true, "strict": false } }\n',
    });
    const { ahead, alone, reused } = await bothWays(root);
    expect(ahead).toBeDefined();
    expect(ahead!.built.warnings.map((w) => w.location?.file)).toContain("tsconfig.json");
    expect(alone.diagnostics.map((d) => [d.code, d.file])).toEqual([["CAVE4004", "tsconfig.json"]]);
    expect(reused).toEqual(alone);
  });

  it("gives up when an extra module does not build, and stage bundles the modules itself", async () => {
    const root = project({
      "tools/orders.ts": toolModule("lookupOrder"),
      "lib/broken.ts":
        'import { schema } from "cave";\nimport { nothing } from "./missing.js";\nexport const b = [schema, nothing];\n',
    });
    const { ahead, alone, reused } = await bothWays(root);
    expect(ahead).toBeUndefined();
    expect(alone.diagnostics).toEqual([]);
    expect(reused).toEqual(alone);
  });

  it("is not used for another project or for modules it did not bundle", async () => {
    const first = project({ "tools/a.ts": toolModule("alpha"), "tools/b.ts": toolModule("beta") });
    const ahead = await bundleAhead(first, ["tools/a.ts"], CONFIG);
    expect(ahead).toBeDefined();
    expect(await stage(first, ["tools/a.ts", "tools/b.ts"], CONFIG, ahead)).toEqual(
      await stage(first, ["tools/a.ts", "tools/b.ts"], CONFIG),
    );
    const second = project({ "tools/a.ts": toolModule("alpha", "export const other = 2;") });
    const elsewhere = await stage(second, ["tools/a.ts"], CONFIG, ahead);
    expect(elsewhere).toEqual(await stage(second, ["tools/a.ts"], CONFIG));
    expect(elsewhere.modules.get("tools/a.ts")!.code).toContain("other = 2");
  });
});

// The worker thread runs the compiled analysis (dist/), so this runs after `npm run build` (as `npm test` does).
const DIST_OFF_THREAD = join(REPO_ROOT, "dist", "compiler", "analyse", "off-thread.js");

describe("analysis off the main thread", () => {
  it.skipIf(!existsSync(DIST_OFF_THREAD))(
    "gives what analysis on this thread gives, diagnostics included",
    async () => {
      const { analyseOffThread } = (await import(
        DIST_OFF_THREAD
      )) as typeof import("../../compiler/analyse/off-thread.js");
      for (const fixture of [
        "examples/support-desk",
        "fixtures/analyse-computed-imported-const",
        "fixtures/analyse-syntax-error",
      ]) {
        const root = join(REPO_ROOT, fixture);
        const found = await discover(root);
        expect(await analyseOffThread(root, found.files), fixture).toStrictEqual(analyse(root, found.files));
      }
    },
  );
});
