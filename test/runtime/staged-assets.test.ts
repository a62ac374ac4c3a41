import { readLock } from "../../runtime/lock/read-lock.js";
// Issue 11, item 2: files a module reads next to itself are staged, pinned, verified before use and read from the
// runtime's private copy, so a file swapped in the build folder after verification is never what the tool reads.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { verifyAll } from "../../runtime/loading/verify-all.js";
import { removeCopies, writeProject } from "../support/projects.js";

afterAll(removeCopies);

// Read at call time (not at import), so what the call sees is what is in the copy when it runs.
const greetModule = (name: string, sandbox: string) => `import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schema, tool } from "cave";

export const greet = tool({
  name: ${JSON.stringify(name)},
  description: "Greets from the file next to the module.",
  effect: "read",
  sandbox: ${JSON.stringify(sandbox)},
  input: schema.object({ name: schema.string() }),
  async execute({ name }) {
    const viaUrl = readFileSync(new URL("./greeting.txt", import.meta.url), "utf8").trim();
    const viaDirname = readFileSync(join(__dirname, "greeting.txt"), "utf8").trim();
    return { text: viaUrl + ", " + name, same: viaUrl === viaDirname, file: __filename.endsWith("/tools/" + ${JSON.stringify(name)} + ".ts") };
  },
});
`;

async function project(): Promise<string> {
  const root = writeProject({
    "tools/greet_sandboxed.ts": greetModule("greet_sandboxed", "required"),
    "tools/greet_host.ts": greetModule("greet_host", "none"),
    "tools/greeting.txt": "Hello\r\n",
  });
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return root;
}

const ASSET = ".cave/bundles/tools/greeting.txt";

describe("staged assets", () => {
  it("are read from the mirror in both modes: import.meta.url and __dirname agree, __filename is the module's", async () => {
    const root = await project();
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
    for (const name of ["greet_sandboxed", "greet_host"])
      expect(lock.tools[name].source.assets).toEqual([
        { path: ASSET, sha256: expect.stringMatching(/^sha256-[0-9a-f]{64}$/) },
      ]);
    // Text is staged as git would commit it: LF, the same bytes on every checkout.
    expect(readFileSync(join(root, ASSET), "utf8")).toBe("Hello\n");
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["greet_sandboxed", "greet_host"]) {
        expect(await runtime.call(name, { name: "Ada" }), name).toMatchObject({
          ok: true,
          content: { text: "Hello, Ada", same: true, file: true },
        });
      }
    } finally {
      runtime.close();
    }
  });

  it("a file swapped after verification is never read: the running runtime keeps the verified bytes, a new one refuses", async () => {
    const root = await project();
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["greet_sandboxed", "greet_host"])
        expect(await runtime.call(name, { name: "Ada" })).toMatchObject({ ok: true, content: { text: "Hello, Ada" } });
      writeFileSync(join(root, ASSET), "Swapped\n");
      for (const name of ["greet_sandboxed", "greet_host"])
        expect(await runtime.call(name, { name: "Bob" }), name).toMatchObject({
          ok: true,
          content: { text: "Hello, Bob" },
        });
    } finally {
      runtime.close();
    }
    const fresh = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["greet_sandboxed", "greet_host"]) {
        const outcome = await fresh.call(name, { name: "Eve" });
        expect(outcome, name).toMatchObject({
          ok: false,
          error: {
            code: "LOCK_MISMATCH",
            message: expect.stringContaining(`tool "${name}": the file ${ASSET} does not match the lock`),
          },
        });
      }
    } finally {
      fresh.close();
    }
    await expect(verifyAll(root, await readLock(join(root, "cave.lock"), "cave.lock"))).rejects.toMatchObject({
      code: "LOCK_MISMATCH",
      message: expect.stringContaining(ASSET),
    });
  });

  it("a missing asset fails the tool's first use with LOCK_MISMATCH naming the file, before any of its code runs", async () => {
    const root = await project();
    rmSync(join(root, ASSET));
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      const outcome = await runtime.call("greet_host", { name: "Ada" });
      expect(outcome).toMatchObject({
        ok: false,
        error: {
          code: "LOCK_MISMATCH",
          message: expect.stringContaining(
            `the file ${ASSET} is missing; deploy cave.lock together with its build folder`,
          ),
        },
      });
    } finally {
      runtime.close();
    }
  });
});
