// Ordinary (unlocked) runs: run(definition, args, { entryPath }) from cave/compiler stages the entry
// on the fly and calls the tool through the same pipeline and sandbox as a locked run.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { run } from "../../compiler/index.js";
import { MemoryReceiptSink } from "../../runtime/index.js";
import { tool } from "../../src/index.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { double, hostDouble } from "./projects/ordinary/tools/double.js";
import { shout, store } from "./projects/ordinary/tools/loose.js";
import { pair } from "./projects/ordinary/tools/pair.js";

let root: string;
beforeAll(() => {
  root = copyProject("test/sandbox/projects/ordinary");
});
afterAll(removeCopies);

describe("run()", () => {
  it("runs a sandboxed tool from its entry module; receipts say there is no lock", async () => {
    const receipts = new MemoryReceiptSink();
    const outcome = await run(double, { n: 21 }, { entryPath: join(root, "tools/double.ts"), receipts });
    expect(outcome).toMatchObject({ ok: true, content: { doubled: 42 } });
    expect((outcome as { content: { pid: number } }).content.pid).not.toBe(process.pid);
    expect(outcome.receipt.lockIntegrity).toBeNull();
    expect(receipts.receipts).toEqual([outcome.receipt]);
  });

  it("accepts an opaque validator without a semantics hash, which cave build refuses (CAVE5007)", async () => {
    const outcome = await run(shout, { word: "  quiet " }, { entryPath: join(root, "tools/loose.ts") });
    expect(outcome).toMatchObject({ ok: true, content: { loud: "QUIET" } });
    const invalid = await run(shout, { word: "" }, { entryPath: join(root, "tools/loose.ts") });
    expect(invalid).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
    const locked = await build({ root, write: false, config: { include: ["tools/loose.ts"] } });
    expect(locked.diagnostics).toContainEqual(expect.objectContaining({ code: "CAVE5007", file: "tools/loose.ts" }));
  });

  it("stages the modules of nested tools too, and runs them through the pipeline", async () => {
    const receipts = new MemoryReceiptSink();
    const outcome = await run(pair, { n: 3 }, { entryPath: join(root, "tools/pair.ts"), receipts });
    expect(outcome).toMatchObject({ ok: true, content: { result: 12 } });
    expect(receipts.receipts.map((r) => r.tool)).toEqual(["double", "double", "pair"]);
    expect(receipts.receipts.every((r) => r.lockIntegrity === null)).toBe(true);
  });

  it("runs a sandbox: none tool in this process", async () => {
    expect(await run(hostDouble, { n: 2 }, { entryPath: join(root, "tools/double.ts") })).toMatchObject({
      ok: true,
      content: { doubled: 4, pid: process.pid },
    });
  });

  it("honours fixture mode", async () => {
    expect(await run(store, { word: "x" }, { entryPath: join(root, "tools/loose.ts"), mode: "fixture" })).toMatchObject(
      { ok: false, error: { code: "EFFECT_BLOCKED" } },
    );
  });

  it("a sandbox-required tool without entryPath is ENTRY_PATH_REQUIRED, saying what to pass", async () => {
    await expect(run(double, { n: 1 })).rejects.toMatchObject({
      code: "ENTRY_PATH_REQUIRED",
      message: expect.stringContaining(
        'run() of tool "double" needs options.entryPath: the path of the module that exports it',
      ),
    });
  });

  it("an entry that does not define the tool is RUN_NOT_STAGED, naming what it defines", async () => {
    await expect(run(double, { n: 1 }, { entryPath: join(root, "tools/loose.ts") })).rejects.toMatchObject({
      code: "RUN_NOT_STAGED",
      message:
        'run(): tools/loose.ts does not define tool "double" (it defines "shout", "store"); pass the path of the module that exports the definition as entryPath',
    });
  });

  it("an entry that does not stage is RUN_NOT_STAGED with the compiler's diagnostics", async () => {
    writeFileSync(
      join(root, "tools/needs-missing.ts"),
      'import { tool } from "cave";\nimport { helper } from "./missing.js";\nexport const needsMissing = tool({ name: "needs_missing", description: "Imports a missing file.", effect: "read", execute: () => helper });\n',
    );
    const definition = tool({
      name: "needs_missing",
      description: "Imports a missing file.",
      effect: "read",
      execute: () => null,
    });
    const refused = run(definition, {}, { entryPath: join(root, "tools/needs-missing.ts") });
    await expect(refused).rejects.toMatchObject({
      code: "RUN_NOT_STAGED",
      message: expect.stringContaining("run(): tools/needs-missing.ts could not be staged:\ntools/needs-missing.ts:2:"),
    });
    await expect(refused).rejects.toMatchObject({ message: expect.stringContaining("./missing.js") });
  });

  it("refuses what is not a tool, unknown options and a missing file", async () => {
    await expect(run({ name: "double" }, {}, { entryPath: "x" })).rejects.toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("takes a tool() definition"),
    });
    await expect(run(double, {}, { entryPath: "x", entrypath: "y" } as never)).rejects.toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining('unknown option "entrypath"'),
    });
    await expect(run(double, {}, { entryPath: join(root, "tools/missing.ts") })).rejects.toMatchObject({
      code: "RUN_NOT_STAGED",
      message: expect.stringContaining("is not a file"),
    });
  });
});
