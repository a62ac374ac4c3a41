import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { copyProject, removeCopies, writeProject } from "../support/projects.js";

/**
 * Ordinary project shapes (issue 11, items 5, 6 and 9): each is built with the real compiler and every tool it
 * defines is locked and called through the runtime, in-process and in the sandbox. Before the fix each of them built
 * with exit 0 and no tool (UNKNOWN_TOOL at run time), or was refused with a wrong explanation.
 */
const made: string[] = [];
afterAll(() => {
  removeCopies();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

type Sandbox = "none" | "required";

/** A read tool `name` returning { tool: name }, written with `call` as the tool function's expression. */
function toolSource(name: string, sandbox: Sandbox, call = "tool", exported = true): string {
  return `${exported ? "export " : ""}const ${name} = ${call}({
  name: "${name}",
  description: "Says ${name}.",
  effect: "read",
  sandbox: "${sandbox}",
  async execute() {
    return { tool: "${name}" };
  },
});
`;
}

/**
 * An npm-workspaces monorepo as `npm install` leaves it (a symlink to each member in the root's node_modules):
 * packages/tools has a tool that imports @acme/shared (TypeScript source) for a function and a lock-field const.
 * Returns the root of packages/tools.
 */
function writeWorkspace(sandbox: Sandbox): string {
  const base = mkdtempSync(join(tmpdir(), "cave-workspace-"));
  made.push(base);
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "acme", private: true, workspaces: ["packages/*"] }),
    "packages/shared/package.json": JSON.stringify({
      name: "@acme/shared",
      version: "1.0.0",
      type: "module",
      main: "src/index.ts",
    }),
    "packages/shared/src/index.ts":
      'export { TIMEOUT } from "./limits.js";\nexport function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
    "packages/shared/src/limits.ts": "export const TIMEOUT = 7000;\n",
    "packages/tools/package.json": JSON.stringify({
      name: "@acme/tools",
      version: "1.0.0",
      type: "module",
      dependencies: { "@acme/shared": "1.0.0" },
    }),
    "packages/tools/tools/a.ts": `import { tool } from "cave";\nimport { greet, TIMEOUT } from "@acme/shared";\nexport const a = tool({ name: "a", description: "Says a.", effect: "read", timeout: TIMEOUT, sandbox: "${sandbox}", async execute() { return { tool: greet("a") === "hello a" ? "a" : "wrong" }; } });\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  mkdirSync(join(base, "node_modules", "@acme"), { recursive: true });
  symlinkSync("../../packages/shared", join(base, "node_modules", "@acme", "shared"), "dir");
  symlinkSync("../../packages/tools", join(base, "node_modules", "@acme", "tools"), "dir");
  return join(base, "packages", "tools");
}

/** Builds the project, expects no error, and calls each expected tool in it. */
async function buildAndCall(
  root: string,
  expected: Record<string, { module: string; export: string }>,
  options: { warnings?: readonly string[] } = {},
): Promise<void> {
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(result.diagnostics.map((d) => d.code)).toEqual(options.warnings ?? []);
  expect(result.ok).toBe(true);
  const locked = Object.fromEntries(
    Object.entries(result.lock!.tools).map(([name, tool]) => [name, { module: tool.module, export: tool.export }]),
  );
  expect(locked).toEqual(expected);
  const runtime = await createRuntime({ root, mode: "host" });
  try {
    for (const name of Object.keys(expected)) {
      const outcome = await runtime.call(name, {});
      expect(outcome.ok ? outcome.content : outcome.error, name).toEqual({ tool: name });
    }
  } finally {
    runtime.close();
  }
}

describe.each<Sandbox>(["none", "required"])("project shapes, sandbox %s", (sandbox) => {
  it('a tool whose `tool` comes from a project module re-exporting it (`export { tool } from "cave"`)', async () => {
    const root = writeProject({
      "lib/cave.ts": 'export { tool, schema } from "cave";\n',
      "tools/a.ts": `import { tool } from "../lib/cave.js";\n${toolSource("a", sandbox)}`,
    });
    await buildAndCall(root, { a: { module: "tools/a.ts", export: "a" } });
  });

  it('through `export * from "cave"`, a namespace import, and a renamed re-export two modules away', async () => {
    const root = writeProject({
      "lib/cave.ts": 'export * from "cave";\n',
      "lib/define.ts": 'import { tool as t } from "cave";\nexport { t as defineTool };\n',
      "lib/index.ts": 'export * from "./define.js";\n',
      "tools/a.ts": `import * as c from "../lib/cave.js";\n${toolSource("a", sandbox, "c.tool")}`,
      "tools/b.ts": `import { defineTool } from "../lib/index.js";\n${toolSource("b", sandbox, "defineTool")}`,
    });
    await buildAndCall(root, { a: { module: "tools/a.ts", export: "a" }, b: { module: "tools/b.ts", export: "b" } });
  });

  it("tools reached through a barrel index.ts that the configuration includes", async () => {
    const root = writeProject({
      "cave.config.json": JSON.stringify({ include: ["tools/index.ts"] }),
      "tools/index.ts":
        'export * from "./a.js";\nexport { b as bee } from "./b.js";\nimport { c } from "./c.js";\nexport { c };\n',
      "tools/a.ts": `import { tool } from "cave";\n${toolSource("a", sandbox)}`,
      "tools/b.ts": `import { tool } from "cave";\n${toolSource("b", sandbox)}`,
      "tools/c.ts": `import { tool } from "cave";\n${toolSource("c", sandbox)}`,
    });
    await buildAndCall(root, {
      a: { module: "tools/index.ts", export: "a" },
      b: { module: "tools/index.ts", export: "bee" },
      c: { module: "tools/index.ts", export: "c" },
    });
  });

  it("a barrel beside modules the build includes anyway: each tool is locked from its own module", async () => {
    const root = writeProject({
      "tools/index.ts": 'export * from "./a.js";\n',
      "tools/a.ts": `import { tool } from "cave";\n${toolSource("a", sandbox)}`,
    });
    await buildAndCall(root, { a: { module: "tools/a.ts", export: "a" } });
  });

  it(".tsx, .cts and .mts modules under the default include", async () => {
    const root = writeProject({
      "tools/a.tsx": `import { tool } from "cave";\n${toolSource("a", sandbox)}`,
      "tools/b.cts": `import { tool } from "cave";\n${toolSource("b", sandbox)}`,
      "tools/c.mts": `import { tool } from "cave";\n${toolSource("c", sandbox)}`,
      "tools/a.test.tsx": `import { tool } from "cave";\n${toolSource("not_built", sandbox)}`,
    });
    await buildAndCall(root, {
      a: { module: "tools/a.tsx", export: "a" },
      b: { module: "tools/b.cts", export: "b" },
      c: { module: "tools/c.mts", export: "c" },
    });
  });

  it("a tool const without export that an exported agent lists, and one exported later under another name", async () => {
    const root = writeProject({
      "tools/a.ts": `import { agent, tool } from "cave";\n${toolSource("a", sandbox, "tool", false)}${toolSource("b", sandbox, "tool", false)}export const desk = agent({ name: "desk", tools: [a] });\nexport { b as lookup };\n`,
    });
    await buildAndCall(root, {
      a: { module: "tools/a.ts", export: "a" },
      b: { module: "tools/a.ts", export: "lookup" },
    });
  });

  it("a lock-field const imported through tsconfig `paths` and `baseUrl` aliases", async () => {
    const root = writeProject({
      "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@config/*": ["src/config/*"] } } }),
      "src/config/limits.ts": "export const TIMEOUT = 5000;\n",
      "src/names.ts": 'export const NAME = "a";\n',
      "tools/a.ts": `import { tool } from "cave";\nimport { TIMEOUT } from "@config/limits";\nimport { NAME } from "src/names";\nexport const a = tool({ name: NAME, description: "Says a.", effect: "read", timeout: TIMEOUT, sandbox: "${sandbox}", async execute() { return { tool: "a" }; } });\n`,
    });
    await buildAndCall(root, { a: { module: "tools/a.ts", export: "a" } });
    const lock = (await build({ root, write: false })).lock!;
    expect(lock.tools.a!.timeoutMs).toBe(5000);
  });

  it("an npm-workspaces monorepo: a tool imports a sibling workspace package written in TypeScript, built with --root at its package", async () => {
    const root = writeWorkspace(sandbox);
    await buildAndCall(root, { a: { module: "tools/a.ts", export: "a" } });
    const lock = (await build({ root, write: false })).lock!;
    expect(lock.tools.a!.timeoutMs).toBe(7000);
    expect(Object.keys(lock.tools.a!.source.files).filter((id) => id.includes("shared"))).toEqual([
      "node_modules/@acme/shared/src/index.ts",
      "node_modules/@acme/shared/src/limits.ts",
    ]);
  });
});

describe("project shapes: what cannot be locked is said", () => {
  it("a workspace package stops being project code when the workspace no longer lists it: the build cache sees the workspace's package.json", async () => {
    const root = writeWorkspace("none");
    expect((await build({ root })).ok).toBe(true);
    expect((await build({ root })).cached).toBe(true);
    writeFileSync(
      join(root, "..", "..", "package.json"),
      JSON.stringify({ name: "acme", private: true, workspaces: ["packages/tools"] }),
    );
    const result = await build({ root });
    expect(result.cached).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain("CAVE3005");
  });

  it("a tool const without export that nothing lists is a located warning, and is not locked", async () => {
    const root = writeProject({
      "tools/a.ts": `import { tool } from "cave";\n${toolSource("a", "none")}${toolSource("unused", "none", "tool", false)}`,
    });
    const result = await build({ root, write: false });
    expect(result.ok).toBe(true);
    expect(Object.keys(result.lock!.tools)).toEqual(["a"]);
    expect(result.diagnostics).toEqual([
      {
        code: "CAVE3004",
        severity: "warning",
        message:
          'tool "unused" is defined without being exported and no locked agent or composite tool lists it, so it is not locked and cannot be called',
        file: "tools/a.ts",
        line: 11,
        column: 16,
        hint: "If it should be callable, export it (`export const unused = tool({...})` or `export { unused }`) or list it in an exported agent's tools; otherwise delete it.",
      },
    ]);
  });
});

describe.each<Sandbox>(["none", "required"])("output follows the rules of input, sandbox %s", (sandbox) => {
  it("a transforming zod output is locked with outputJSONSchema, and a call returns what the transform made of the tool's value", async () => {
    const root = copyProject("fixtures/evaluate-transform-output");
    if (sandbox === "none") {
      const path = join(root, "orders.ts");
      writeFileSync(path, readFileSync(path, "utf8").replace('effect: "read",', 'effect: "read",\n  sandbox: "none",'));
    }
    const result = await build({ root });
    expect(result.diagnostics).toEqual([]);
    expect(result.lock!.tools.order_total!.output).toMatchObject({
      jsonSchema: { properties: { cents: { type: "integer", minimum: 0 } } },
      validation: { kind: "opaque", vendor: "zod" },
    });
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      const outcome = await runtime.call("order_total", { id: "A1" });
      expect(outcome.ok ? outcome.content : outcome.error).toEqual({ cents: 1250 });
    } finally {
      runtime.close();
    }
  });
});
