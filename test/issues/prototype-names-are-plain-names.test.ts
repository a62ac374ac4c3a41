// Issue 13, item 12: an agent named `valueOf`, or `cave explain constructor` / `toString` / `__proto__`, exited 70, and a
// build crashed after writing the lock. Every name-keyed lookup uses a record without a prototype, and the lock is
// written only when the whole build succeeded.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../runtime/create-runtime.js";
import { cave } from "../cli/helpers.js";
import { removeCopies, writeProject } from "../support/projects.js";

/**
 * Issue 13 item 12: names that are also properties of Object.prototype (constructor, toString, valueOf,
 * hasOwnProperty, __proto__) are ordinary names. Every lookup by name (tools, agents, files, options, commands)
 * must use a map without a prototype, so such a name is found when it exists and not found when it does not.
 */
afterAll(removeCopies);

const TOOLS = `import { tool, schema, agent } from "cave";

export const ctor = tool({
  name: "constructor",
  description: "A tool named constructor.",
  input: schema.object({ toString: schema.string(), __proto__x: schema.optional(schema.string()) }),
  output: schema.object({ valueOf: schema.string() }),
  effect: "read",
  sandbox: "none",
  execute({ toString }) {
    return { valueOf: toString };
  },
});

export const str = tool({
  name: "toString",
  description: "A tool named toString.",
  input: schema.object({}),
  effect: "read",
  sandbox: "none",
  execute() {
    return "ok";
  },
});

export const valueOf = agent({ name: "valueOf", tools: [ctor, str] });
export const hasOwn = agent({ name: "hasOwnProperty", tools: [str] });
`;

describe("names that are Object.prototype properties", () => {
  it("build, explain, diff and call work with tools named constructor / toString and agents named valueOf / hasOwnProperty", async () => {
    const root = writeProject({ "tools.ts": TOOLS, "package.json": JSON.stringify({ name: "proto", type: "module" }) });
    const built = await cave(["build"], root);
    expect(built.stderr).toBe("");
    expect(built.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
    expect(Object.keys(lock.tools).sort()).toEqual(["constructor", "toString"]);
    expect(Object.keys(lock.agents).sort()).toEqual(["hasOwnProperty", "valueOf"]);

    const explained = await cave(["explain", "constructor"], root);
    expect(explained).toMatchObject({ code: 0, stderr: "" });
    expect(explained.stdout).toContain('tool "constructor": export ctor of tools.ts');
    expect(explained.stdout).toContain('used by: agent "valueOf".');
    expect((await cave(["explain", "toString"], root)).stdout).toContain(
      'used by: agent "hasOwnProperty", agent "valueOf".',
    );

    const runtime = await createRuntime({ root, mode: "host" });
    expect(await runtime.call("constructor", { toString: "x" })).toMatchObject({ ok: true, content: { valueOf: "x" } });
    expect(await runtime.call("toString", {})).toMatchObject({ ok: true, content: "ok" });
    expect(await runtime.call("valueOf", {})).toMatchObject({ ok: false, error: { code: "UNKNOWN_TOOL" } });
    expect(await runtime.call("__proto__", {})).toMatchObject({ ok: false, error: { code: "UNKNOWN_TOOL" } });
    expect(
      runtime
        .toolDeclarations("mcp")
        .map((d) => d.name)
        .filter((n) => !n.startsWith("cave_")),
    ).toEqual(["constructor", "toString"]);
    runtime.close();
  }, 120_000);

  it("cave explain of a prototype name that is not locked says it is not there (exit 1), never crashes (70)", async () => {
    const root = writeProject({
      "tools.ts": TOOLS.replace('name: "constructor"', 'name: "lookup"'),
      "package.json": JSON.stringify({ name: "proto", type: "module" }),
    });
    expect((await cave(["build"], root)).code).toBe(0);
    for (const name of ["constructor", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"]) {
      const run = await cave(["explain", name], root);
      expect(run.code, `${name}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(`has no tool ${JSON.stringify(name)}`);
      expect(await cave(["explain", name, "--json"], root)).toMatchObject({ code: 1 });
    }
    for (const command of ["constructor", "__proto__", "toString"]) {
      const run = await cave([command], root);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`unknown command ${JSON.stringify(command)}`);
    }
  }, 120_000);

  it("a build that fails writes no lock (the lock is written only when the whole build succeeded)", async () => {
    const root = writeProject({
      "tools.ts": `${TOOLS}\nexport const clash = agent({ name: "valueOf", tools: [str] });\n`,
      "package.json": JSON.stringify({ name: "proto", type: "module" }),
    });
    const built = await cave(["build"], root);
    expect(built.code).toBe(1);
    expect(built.stderr).not.toMatch(/internal|TypeError|at .*\.js:\d+/);
    expect(existsSync(join(root, "cave.lock"))).toBe(false);
  }, 120_000);
});

describe("a build that fails after planning", () => {
  it("writes nothing: the review (the CLI's diff) runs before the lock and the build folder are written", async () => {
    const { build } = await import("../../compiler/build.js");
    const root = writeProject({ "tools.ts": TOOLS, "package.json": JSON.stringify({ name: "proto", type: "module" }) });
    let reviewed: unknown = null;
    await expect(
      build({
        root,
        cache: false,
        review(lock) {
          reviewed = lock;
          throw new Error("the review failed");
        },
      }),
    ).rejects.toThrow("the review failed");
    expect(reviewed).toMatchObject({ lockfileVersion: 2 });
    expect(existsSync(join(root, "cave.lock"))).toBe(false);
    expect(existsSync(join(root, ".cave", "bundles"))).toBe(false);

    // The same build without the failing review writes the lock, and a rebuild (a cache hit) is reviewed too.
    const written = await build({ root });
    expect(written.ok).toBe(true);
    expect(existsSync(join(root, "cave.lock"))).toBe(true);
    const before = readFileSync(join(root, "cave.lock"), "utf8");
    await expect(
      build({
        root,
        review: () => {
          throw new Error("again");
        },
      }),
    ).rejects.toThrow("again");
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(before);
  });

  it("refuses a review that is not a function (CAVE2007)", async () => {
    const { build } = await import("../../compiler/build.js");
    const result = await build({ root: writeProject({ "tools.ts": TOOLS }), review: "yes" as never });
    expect(result.ok).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({
      code: "CAVE2007",
      message: "build option review must be a function",
    });
  });
});
