// Issue 11, item 2: a package that locates its own files (figlet reads its fonts next to its module URL) builds and
// runs in both sandbox modes, the font staged from cave.config.json "assets" and pinned in the lock.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { normalisedText } from "../../compiler/stage/text.js";
import { createRuntime } from "../../runtime/index.js";
import { sha256 } from "../../src/contract/hash.js";
import { copyWorkspace, removeWorkspaceCopies } from "./workspace.js";

afterAll(removeWorkspaceCopies);

describe("figlet", () => {
  it("draws in both sandbox modes with its font staged next to its module; a swapped font is refused", async () => {
    const root = copyWorkspace(["figlet.ts"]);
    const result = await build({ root });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const font = ".cave/bundles/node_modules/figlet/fonts/Standard.flf";
    // The font is text with CRLF endings in the package: staged and pinned as git would commit it, with LF.
    const installed = readFileSync(join(root, "node_modules/figlet/fonts/Standard.flf"));
    expect(installed.includes("\r\n")).toBe(true);
    const normalised = Buffer.from(normalisedText(installed));
    expect(normalised.includes("\r")).toBe(false);
    expect(result.lock!.tools.figlet!.source.assets).toEqual([{ path: font, sha256: sha256(normalised) }]);
    expect(readFileSync(join(root, font))).toEqual(normalised);

    const runtime = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["figlet", "figlet_host"]) {
        const outcome = await runtime.call(name, { text: "cave" });
        expect(outcome, name).toMatchObject({ ok: true });
        expect((outcome as { content: { art: string } }).content.art).toContain("__ _");
      }
    } finally {
      runtime.close();
    }

    // The font is verified like the code: a changed one fails the tool's first use, naming the file.
    writeFileSync(join(root, font), `${readFileSync(join(root, font), "utf8")}\n`);
    const again = await createRuntime({ root, mode: "host" });
    try {
      const outcome = await again.call("figlet_host", { text: "cave" });
      expect(outcome).toMatchObject({
        ok: false,
        error: {
          code: "LOCK_MISMATCH",
          message: expect.stringContaining(`tool "figlet_host": the file ${font} does not match the lock`),
        },
      });
    } finally {
      again.close();
    }
  });
});
