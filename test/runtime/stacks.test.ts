// Issue 11, item 8: a tool error carries a stack mapped to the original file:line (the bundle's inline source map), in
// both sandbox modes, with project-relative paths only.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { removeCopies, writeProject } from "../support/projects.js";

afterAll(removeCopies);

const tools = (suffix: string, sandbox: string) => `import { schema, tool } from "cave";
import { explode } from "thrower";
import { failDeep } from "./lib/fail.js";

export const here${suffix} = tool({
  name: "fails_here${suffix}",
  description: "Throws from a project file.",
  effect: "read",
  sandbox: ${JSON.stringify(sandbox)},
  input: schema.object({}),
  async execute() {
    return failDeep("here");
  },
});

export const inPackage${suffix} = tool({
  name: "fails_in_package${suffix}",
  description: "Throws from a package it bundles.",
  effect: "read",
  sandbox: ${JSON.stringify(sandbox)},
  input: schema.object({}),
  execute() {
    return explode();
  },
});
`;

// A stack the tool wrote itself: a path of this machine, Node's internals, a line that is no frame, a file elsewhere.
const FORGED = String.raw`Error: forged\n    at secret (/etc/passwd:1:1)\n    at node:internal/process/task_queues:95:5\nnot a frame\n    at file:///root/elsewhere.js:2:3`;

const forgedModule = (name: string, sandbox: string) => `import { schema, tool } from "cave";
export const ${name.replace("_host", "Host")} = tool({
  name: ${JSON.stringify(name)},
  description: "Throws an error whose stack it wrote itself.",
  effect: "read",
  sandbox: ${JSON.stringify(sandbox)},
  input: schema.object({}),
  execute() {
    const error = new Error("forged");
    error.stack = "${FORGED}";
    throw error;
  },
});
`;

async function project(): Promise<string> {
  const root = writeProject(
    {
      "tools/lib/fail.ts":
        "export function failDeep(what: string): never {\n  const message: string = `failed ${what}`;\n  throw new Error(message);\n}\n",
      "tools/sandboxed.ts": tools("", "required"),
      "tools/host.ts": tools("_host", "none"),
      "node_modules/thrower/package.json":
        '{ "name": "thrower", "version": "1.0.0", "type": "module", "exports": "./lib/index.js" }\n',
      "node_modules/thrower/lib/index.js":
        "// A package that throws.\nexport function explode() {\n  const where = 'package';\n  throw new TypeError(`exploded in the ${where}`);\n}\n",
    },
    { nodeModules: false },
  );
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return root;
}

describe("tool errors carry a mapped stack", () => {
  it("naming the original project file and line, and a bundled package's file and line, in both sandbox modes", async () => {
    const root = await project();
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      for (const [suffix, module, isolation] of [
        ["", "tools/sandboxed.ts", "os"],
        ["_host", "tools/host.ts", "none"],
      ] as const) {
        const here = await runtime.call(`fails_here${suffix}`, {});
        // Lines and columns of the TypeScript sources: `throw new Error` on line 3 of fail.ts, the call on line 12.
        expect(here).toMatchObject({
          ok: false,
          error: {
            code: "TOOL_ERROR",
            message: `tool "fails_here${suffix}" failed: failed here`,
            stack: ["failDeep (tools/lib/fail.ts:3:9)", `Object.execute (${module}:12:12)`],
          },
        });
        expect(here.receipt.isolation === isolation || (isolation === "os" && here.receipt.isolation === "node")).toBe(
          true,
        );
        const there = await runtime.call(`fails_in_package${suffix}`, {});
        expect(there).toMatchObject({
          ok: false,
          error: {
            code: "TOOL_ERROR",
            message: `tool "fails_in_package${suffix}" failed: TypeError: exploded in the package`,
            stack: ["explode (node_modules/thrower/lib/index.js:4:9)", `Object.execute (${module}:23:12)`],
          },
        });
        // Nothing of this machine: not the project root, not the runtime's private copy in the temporary folder.
        for (const outcome of [here, there]) expect(JSON.stringify(outcome)).not.toContain(tmpdir());
      }
    } finally {
      runtime.close();
    }
  });

  it("leaves out frames outside the staged files and lines that are not frames, whatever the tool put in its stack", async () => {
    const root = writeProject({
      "tools/forged.ts": forgedModule("forged", "required"),
      "tools/forged_host.ts": forgedModule("forged_host", "none"),
    });
    expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["forged", "forged_host"]) {
        const outcome = await runtime.call(name, {});
        expect(outcome).toMatchObject({
          ok: false,
          error: { code: "TOOL_ERROR", message: `tool "${name}" failed: forged` },
        });
        // No frame left: no stack at all, rather than an empty one.
        expect(outcome.ok === false && "stack" in outcome.error).toBe(false);
      }
    } finally {
      runtime.close();
    }
  });

  it("the source map is the bundle's last line: pinned by the bundle's sha256, naming sources by canonical id", async () => {
    const root = await project();
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
    const bundle = readFileSync(join(root, lock.tools.fails_here.source.bundle), "utf8");
    const last = bundle.trimEnd().split("\n").at(-1)!;
    expect(last.startsWith("//# sourceMappingURL=data:application/json;base64,")).toBe(true);
    const map = JSON.parse(Buffer.from(last.slice(last.indexOf(",") + 1), "base64").toString("utf8"));
    expect(map).toMatchObject({ version: 3, sourceRoot: "../../../", names: [] });
    expect([...map.sources].sort()).toEqual([
      "node_modules/thrower/lib/index.js",
      "tools/lib/fail.ts",
      "tools/sandboxed.ts",
    ]);
    expect("sourcesContent" in map).toBe(false);
  });
});
