// A durable ordinary run: run(definition, args, { entryPath, journal, runId }) from cave/compiler.
// The contract: durable runs refuse opaque validator identity, so an opaque validator without
// schemaSemanticsSHA256 (which an ordinary run without journal accepts) is refused here.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../compiler/index.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { double } from "../sandbox/projects/ordinary/tools/double.js";
import { shout } from "../sandbox/projects/ordinary/tools/loose.js";
import { freshJournal } from "./support/journals.js";

let root: string;
beforeAll(() => {
  root = copyProject("test/sandbox/projects/ordinary");
});
afterAll(removeCopies);

describe("run() with a journal", () => {
  it("refuses an opaque validator without schemaSemanticsSHA256 (CAVE5007), saying a durable run needs it", async () => {
    const { setting } = freshJournal("sqlite");
    const entryPath = join(root, "tools/loose.ts");
    expect(await run(shout, { word: "quiet" }, { entryPath })).toMatchObject({ ok: true });
    await expect(run(shout, { word: "quiet" }, { entryPath, journal: setting, runId: "r" })).rejects.toMatchObject({
      code: "RUN_NOT_STAGED",
      message: expect.stringMatching(
        /durable run, with a journal, refuses opaque validators without schemaSemanticsSHA256[\s\S]*CAVE5007/,
      ),
    });
  });

  it("records a tool with precompiled schemas and replays it in the next run() with the same runId", async () => {
    const { setting } = freshJournal("file");
    const entryPath = join(root, "tools/double.ts");
    const first = await run(double, { n: 4 }, { entryPath, journal: setting, runId: "ordinary" });
    expect(first).toMatchObject({ ok: true, content: { doubled: 8 } });
    const again = await run(double, { n: 4 }, { entryPath, journal: setting, runId: "ordinary" });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    await expect(run(double, { n: 4 }, { entryPath, journal: setting })).rejects.toMatchObject({
      code: "OPTIONS_INVALID",
    });
  });
});
