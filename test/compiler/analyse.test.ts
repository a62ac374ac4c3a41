import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyse } from "../../compiler/analyse/index.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { AnalyseResult } from "../../compiler/types.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes the modules into a fresh temp project and analyses the ones listed in `build` (default: all). */
function run(files: Record<string, string>, build?: readonly string[]): AnalyseResult {
  const root = mkdtempSync(join(tmpdir(), "cave-analyse-"));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return analyse(root, [...(build ?? Object.keys(files))].sort());
}

function codes(result: AnalyseResult): string[] {
  return result.diagnostics.map((d) => d.code);
}

function only(result: AnalyseResult, code: string): Diagnostic {
  const found = result.diagnostics.filter((d) => d.code === code);
  expect(found, JSON.stringify(result.diagnostics, null, 2)).toHaveLength(1);
  return found[0]!;
}

/** 1-based line and column of the first occurrence of `needle` in `text`. */
function at(text: string, needle: string, nth = 0): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = text.indexOf(needle, index + 1);
  if (index < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const EXECUTE = "execute() { return 1; },";

function toolModule(body: string, imports = 'import { tool } from "cave";'): string {
  return `${imports}\n\nexport const t = tool({\n${body}\n  ${EXECUTE}\n});\n`;
}

describe("analyse: finding definitions", () => {
  it("reads a tool and fills every default as tool() does", () => {
    const result = run({
      "tools/orders.ts": toolModule('  name: "lookup_order",\n  description: "Look up an order.",\n  effect: "read",'),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.modules).toEqual(["tools/orders.ts"]);
    expect(result.tools).toEqual([
      {
        name: "lookup_order",
        module: "tools/orders.ts",
        exportName: "t",
        file: "tools/orders.ts",
        line: 3,
        column: 18,
        description: "Look up an order.",
        effect: "read",
        timeoutMs: 30000,
        allowRepeat: false,
        sandbox: { mode: "required", network: false, env: [], egress: [], secrets: {}, fs: null, addons: false },
        nestedTools: [],
        result: { policy: "auto" },
        declaresInput: false,
        declaresOutput: false,
        schemaSemanticsSHA256: null,
      },
    ]);
  });

  it("counts an aliased import of tool", () => {
    const result = run({
      "a.ts":
        'import { tool as defineTool } from "cave";\nexport const lookup = defineTool({ name: "lookup", description: "d", effect: "read", execute() {} });\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.map((t) => [t.name, t.exportName])).toEqual([["lookup", "lookup"]]);
  });

  it('counts a namespace import: cave.tool(...), cave.agent(...), cave["artifact"](...)', () => {
    const result = run({
      "a.ts": [
        'import * as cave from "cave";',
        'export const lookup = cave.tool({ name: "lookup", description: "d", effect: "read", result: cave["artifact"]({ maxInlineTokens: 5 }), execute() {} });',
        'export const desk = cave.agent({ name: "desk", tools: [lookup] });',
      ].join("\n"),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools[0]!.result).toEqual({
      policy: "artifact",
      artifact: { strategy: "page", maxInlineTokens: 5, recovery: "exact_ccr" },
    });
    expect(result.agents).toEqual([
      {
        name: "desk",
        module: "a.ts",
        exportName: "desk",
        file: "a.ts",
        line: 3,
        column: 21,
        description: null,
        tools: ["lookup"],
      },
    ]);
  });

  it("ignores a local function named tool, a tool imported from elsewhere, and a parameter shadowing the import", () => {
    const result = run({
      "local.ts": "function tool(x: unknown) { return x; }\nexport const a = tool({ name: 5 });\n",
      "other.ts": 'import { tool } from "other-sdk";\nexport const b = tool({ name: 5 });\n',
      "shadow.ts":
        'import { tool } from "cave";\nexport function make(tool: (x: unknown) => unknown) { return tool({ name: 5 }); }\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools).toEqual([]);
    expect(result.modules).toEqual([]);
  });

  it("produces nothing for modules that do not import from cave", () => {
    const result = run({ "util.ts": "export const x = 1;\nexport function tool() {}\n" });
    expect(result).toEqual({ tools: [], agents: [], modules: [], localExports: {}, diagnostics: [] });
  });

  it("takes the export name from export { x } and export { x as y }", () => {
    const result = run({
      "a.ts": [
        'import { tool, agent } from "cave";',
        'const lookup = tool({ name: "lookup", description: "d", effect: "read", execute() {} });',
        'const desk = agent({ name: "desk", tools: [lookup] });',
        "export { lookup, desk as supportDesk };",
      ].join("\n"),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools[0]!.exportName).toBe("lookup");
    expect(result.agents[0]!.exportName).toBe("supportDesk");
  });

  it("resolves tools listed through a namespace import and a const array imported from another module", () => {
    const result = run({
      "tools/orders.ts":
        'import { tool } from "cave";\nexport const lookup = tool({ name: "lookup", description: "d", effect: "read", execute() {} }) as unknown as { name: string };\n',
      "tools/all.ts": 'import * as orders from "./orders.js";\nexport const ALL = [orders.lookup] as const;\n',
      "agent.ts":
        'import { agent, tool } from "cave";\nimport { ALL } from "./tools/all.js";\nimport * as orders from "./tools/orders.js";\nexport const desk = agent({ name: "desk", tools: ALL });\nexport const wrap = tool({ name: "wrap", description: "d", effect: "read", nestedTools: [orders.lookup], execute() {} });\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.agents.map((a) => a.tools)).toEqual([["lookup"]]);
    expect(result.tools.map((t) => [t.name, t.exportName, t.nestedTools])).toEqual([
      ["lookup", "lookup", []],
      ["wrap", "wrap", ["lookup"]],
    ]);
    expect(result.modules).toEqual(["agent.ts", "tools/orders.ts"]);
  });

  it("sorts tools, agents, modules, nested tools, env names and agent tools", () => {
    const result = run({
      "b.ts":
        'import { tool } from "cave";\nexport const zeta = tool({ name: "zeta", description: "d", effect: "read", sandboxProfile: { env: ["REGION", "LOCALE"] }, execute() {} });\n',
      "a.ts": [
        'import { tool, agent } from "cave";',
        'import { zeta } from "./b.js";',
        'export const alpha = tool({ name: "alpha", description: "d", effect: "read", execute() {} });',
        'export const mid = tool({ name: "mid", description: "d", effect: "read", nestedTools: [zeta, alpha], execute() {} });',
        'export const desk = agent({ name: "desk", tools: [zeta, mid, alpha] });',
        'export const back = agent({ name: "back", tools: [alpha] });',
      ].join("\n"),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.modules).toEqual(["a.ts", "b.ts"]);
    expect(result.tools.map((t) => t.name)).toEqual(["alpha", "mid", "zeta"]);
    expect(result.tools[1]!.nestedTools).toEqual(["alpha", "zeta"]);
    expect(result.tools[2]!.sandbox.env).toEqual(["LOCALE", "REGION"]);
    expect(result.agents.map((a) => [a.name, a.tools])).toEqual([
      ["back", ["alpha"]],
      ["desk", ["alpha", "mid", "zeta"]],
    ]);
  });

  it("notes whether input, output and a semantics hash are declared", () => {
    const hash = "a".repeat(64);
    const result = run({
      "a.ts": `import { tool, schema } from "cave";\nimport { z } from "zod";\nexport const t = tool({ name: "t", description: "d", effect: "read", input: z.object({}), output: schema.object({}), schemaSemanticsSHA256: "${hash}", execute() {} });\n`,
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools[0]).toMatchObject({ declaresInput: true, declaresOutput: true, schemaSemanticsSHA256: hash });
  });
});

describe("analyse: static values", () => {
  it("resolves a const across a relative import (.js means .ts), re-exports and namespace imports", () => {
    const result = run({
      "tools/shared.ts":
        'export const REGION_TIMEOUT = 12_000;\nexport const ENV = ["REGION"] as const;\nexport * from "./more.js";\n',
      "tools/more.ts": 'const MODE = "required";\nexport { MODE as SANDBOX };\n',
      "tools/a.ts": [
        'import { tool } from "cave";',
        'import { REGION_TIMEOUT, SANDBOX } from "./shared.js";',
        'import * as shared from "./shared.js";',
        'export const t = tool({ name: "t", description: "d", effect: "read", timeout: REGION_TIMEOUT, sandbox: SANDBOX, sandboxProfile: { env: shared.ENV }, execute() {} });',
      ].join("\n"),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools[0]).toMatchObject({
      timeoutMs: 12000,
      sandbox: { mode: "required", network: false, env: ["REGION"] },
    });
    expect(result.modules).toEqual(["tools/a.ts"]);
  });

  it("reads literals through parentheses, as const, satisfies, numeric separators, templates and consts in scope", () => {
    const result = run({
      "a.ts": [
        'import { tool } from "cave";',
        "const LIMITS = { timeout: 1_500, repeat: true } as const;",
        "const NAME = `lookup`;",
        "export const t = tool({",
        "  name: (NAME) satisfies string,",
        "  description: `Looks ${NAME} up.`,",
        '  effect: "read" as const,',
        "  timeout: LIMITS.timeout,",
        '  allowRepeat: LIMITS["repeat"],',
        "  execute() {},",
        "});",
      ].join("\n"),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools[0]).toMatchObject({
      name: "lookup",
      description: "Looks lookup up.",
      timeoutMs: 1500,
      allowRepeat: true,
    });
  });

  it("reads a negative number and reports it with the SDK's rule", () => {
    const text = toolModule('  name: "t",\n  description: "d",\n  effect: "read",\n  timeout: -5,');
    const d = only(run({ "a.ts": text }), "CAVE1005");
    expect(d).toMatchObject({ file: "a.ts", ...at(text, "timeout") });
    expect(d.message).toContain("timeout -5");
  });

  const computed: Array<[string, string, string, number, string]> = [
    ["a function call", "timeout: computeTimeout(),", "computeTimeout()", 1, "timeout"],
    ["a let", "timeout: LET_TIMEOUT,", "LET_TIMEOUT,", 0, "timeout"],
    ["a property of a non-static value", "name: process.env.TOOL_NAME!,", "process", 0, "name"],
    ["a shorthand of a non-static const", "effect,", '["read"][0]', 0, "effect"],
    ["a conditional", 'result: LET_TIMEOUT > 1 ? "page" : "inline",', "LET_TIMEOUT >", 0, "result"],
    ["a getter", "get allowRepeat() { return true; },", "get allowRepeat", 0, "allowRepeat"],
    ["a computed nested tool", "nestedTools: [makeTool()],", "makeTool()", 1, "nestedTools"],
  ];
  it.each(computed)(
    "refuses %s for a locked field (CAVE3005) at the offending expression",
    (_, line, needle, nth, field) => {
      const text = [
        'import { tool } from "cave";',
        "declare function computeTimeout(): number;",
        "declare function makeTool(): never;",
        "let LET_TIMEOUT = 5;",
        'const effect = ["read"][0] ?? "read";',
        "export const t = tool({",
        line.startsWith("name") ? "" : '  name: "t",',
        '  description: "d",',
        line.startsWith("effect") ? "" : '  effect: "read",',
        `  ${line}`,
        "  execute() {},",
        "});",
      ].join("\n");
      const result = run({ "a.ts": text });
      const d = only(result, "CAVE3005");
      expect(d).toMatchObject({ file: "a.ts", ...at(text, needle, nth) });
      expect(d.message).toContain(`${field} is computed`);
      expect(d.hint).toMatch(/literal|const/);
      expect(d.hint).toContain("without running your code");
      expect(result.tools).toEqual([]);
    },
  );

  it("points at the non-static initializer of an imported const and says which field read it", () => {
    const shared = "declare function env(): number;\nexport const TIMEOUT = env();\n";
    const result = run({
      "shared.ts": shared,
      "a.ts":
        'import { tool } from "cave";\nimport { TIMEOUT } from "./shared.js";\nexport const t = tool({ name: "t", description: "d", effect: "read", timeout: TIMEOUT, execute() {} });\n',
    });
    const d = only(result, "CAVE3005");
    expect(d).toMatchObject({ file: "shared.ts", ...at(shared, "env()", 1) });
    expect(d.message).toContain('tool "t": timeout is computed: a function call (read by timeout at a.ts:3:');
    expect(d.hint).toBe(
      "Write the timeout as a literal or a const initialised with one: the lock must know it without running your code.",
    );
  });

  it("reads an artifact(...) policy kept in a const of another module, with the defaults artifact() fills", () => {
    const result = run({
      "policies.ts": 'import { artifact } from "cave";\nexport const SHORT = artifact({ strategy: "compress" });\n',
      "a.ts":
        'import { tool } from "cave";\nimport { SHORT } from "./policies.js";\nexport const t = tool({ name: "t", description: "d", effect: "read", result: SHORT, execute() {} });\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools[0]!.result).toEqual({
      policy: "artifact",
      artifact: { strategy: "compress", maxInlineTokens: 1200, recovery: "exact_ccr" },
    });
    expect(result.modules).toEqual(["a.ts"]);
  });

  it("refuses a spread or a computed key in the options object (CAVE3006)", () => {
    const spread =
      'import { tool } from "cave";\nconst base = { effect: "read" } as const;\nexport const t = tool({ ...base, name: "t", description: "d", execute() {} });\n';
    const d = only(run({ "a.ts": spread }), "CAVE3006");
    expect(d).toMatchObject({ file: "a.ts", ...at(spread, "...base") });
    expect(d.hint).toContain("object literal with every key spelled out");
    const key =
      'import { tool } from "cave";\ndeclare const k: string;\nexport const t = tool({ [k]: 1, name: "t", description: "d", effect: "read", execute() {} });\n';
    expect(only(run({ "a.ts": key }), "CAVE3006")).toMatchObject({ ...at(key, "k]") });
  });

  it("reads options from a const object literal, and refuses options that are computed", () => {
    const ok = run({
      "a.ts":
        'import { tool } from "cave";\nconst options = { name: "t", description: "d", effect: "read", execute() {} } as const;\nexport const t = tool(options);\n',
    });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.tools.map((t) => t.name)).toEqual(["t"]);
    const text = 'import { tool } from "cave";\ndeclare function make(): any;\nexport const t = tool(make());\n';
    const d = only(run({ "a.ts": text }), "CAVE3006");
    expect(d).toMatchObject(at(text, "make()", 1));
  });
});

describe("analyse: where definitions live", () => {
  it("refuses a tool inline in an agent's tools array (CAVE3003) but still names it for the agent", () => {
    const text =
      'import { tool, agent } from "cave";\nexport const desk = agent({ name: "desk", tools: [tool({ name: "inline", description: "d", effect: "read", execute() {} })] });\n';
    const result = run({ "a.ts": text });
    const d = only(result, "CAVE3003");
    expect(d).toMatchObject({ file: "a.ts", ...at(text, "tool({") });
    expect(d.message).toBe('tool "inline" is defined inline in an array');
    expect(d.hint).toContain("export const inline = tool({...})");
    expect(result.tools).toEqual([]);
    expect(result.agents.map((a) => a.tools)).toEqual([["inline"]]);
  });

  it.each([
    [
      "inside a function",
      'export function make() { return tool({ name: "t", description: "d", effect: "read", execute() {} }); }',
      "CAVE3003",
      "inside a function",
    ],
    [
      "as a default export",
      'export default tool({ name: "t", description: "d", effect: "read", execute() {} });',
      "CAVE3003",
      "as a default export",
    ],
    [
      "with let",
      'export let t = tool({ name: "t", description: "d", effect: "read", execute() {} });',
      "CAVE3003",
      "with let",
    ],
  ])("refuses a tool defined %s", (_, line, code, where) => {
    const text = `import { tool } from "cave";\n${line}\n`;
    const result = run({ "a.ts": text });
    const d = only(result, code);
    expect(d).toMatchObject({ file: "a.ts", ...at(text, "tool({") });
    expect(d.message).toContain(where);
    expect(d.hint).toMatch(/export const t = tool|export \{ t \}/);
    expect(result.tools).toEqual([]);
  });

  it("warns (CAVE3004, not locked) about a tool const that is not exported and that no locked agent lists", () => {
    const text =
      'import { tool } from "cave";\nconst t = tool({ name: "t", description: "d", effect: "read", execute() {} });\nexport const tools = [t];\n';
    const result = run({ "a.ts": text });
    const d = only(result, "CAVE3004");
    expect(d).toMatchObject({ severity: "warning", file: "a.ts", ...at(text, "tool({") });
    expect(d.message).toBe(
      'tool "t" is defined without being exported and no locked agent or composite tool lists it, so it is not locked and cannot be called',
    );
    expect(d.hint).toContain("export const t = tool({...})");
    expect(result.tools).toEqual([]);
    expect(result.modules).toEqual([]);
  });

  it("refuses tool/agent/artifact used other than in a direct call (CAVE3010); a re-export is not such a use", () => {
    const text =
      'import { tool } from "cave";\nimport * as cave from "cave";\nconst make = tool;\nconst { agent } = cave;\nexport { artifact } from "cave";\nconst { x = tool } = {} as { x?: unknown };\nexport const ok = typeof tool === "function" && cave.schema !== undefined;\n';
    const result = run({ "a.ts": text });
    expect(codes(result)).toEqual(["CAVE3010", "CAVE3010", "CAVE3010"]);
    expect(result.diagnostics[0]).toMatchObject(at(text, "tool;"));
    expect(result.diagnostics[0]!.hint).toContain("Call tool(...), agent(...) and artifact(...) directly");
  });

  it("refuses a nested tool defined in a module outside the build (CAVE3007)", () => {
    const text =
      'import { tool } from "cave";\nimport { child } from "./child.js";\nexport const t = tool({ name: "t", description: "d", effect: "read", nestedTools: [child], execute() {} });\n';
    const result = run(
      {
        "a.ts": text,
        "child.tsx":
          'import { tool } from "cave";\nexport const child = tool({ name: "child", description: "d", effect: "read", execute() {} });\n',
      },
      ["a.ts"],
    );
    const d = only(result, "CAVE3007");
    expect(d).toMatchObject({ file: "a.ts", ...at(text, "child]") });
    expect(d.message).toContain("child.tsx");
    expect(d.hint).toContain("include globs");
    expect(result.tools).toEqual([]);
  });

  it("reports a syntax error (CAVE3002) and a module it cannot read (CAVE3001)", () => {
    const text = 'import { tool } from "cave";\nexport const t = tool({ name: "t", description: });\n';
    const result = run({ "a.ts": text }, ["a.ts", "missing.ts"]);
    // Only the syntax error: definitions read from a broken tree would be noise.
    expect(codes(result)).toEqual(["CAVE3002", "CAVE3001"]);
    expect(only(result, "CAVE3002")).toMatchObject({ file: "a.ts", line: 2 });
    expect(result.diagnostics.find((d) => d.code === "CAVE3002")!.hint).toContain("Fix the syntax");
    const unreadable = only(result, "CAVE3001");
    expect(unreadable).toMatchObject({ file: "missing.ts", line: null });
    expect(unreadable.message).toContain("missing.ts could not be read");
    expect(unreadable.message).not.toContain(tmpdir());
  });
});

describe("analyse: authoring rules, statically, with the SDK's codes", () => {
  const rule = (code: string, body: string, needle: string, extra = "") => {
    const text = `import { tool, artifact } from "cave";\n${extra}export const t = tool({\n${body}\n  ${EXECUTE}\n});\n`;
    const result = run({ "a.ts": text });
    const d = only(result, code);
    expect(d).toMatchObject({ file: "a.ts", severity: "error", ...at(text, needle) });
    expect(d.hint.length).toBeGreaterThan(10);
    expect(result.tools).toEqual([]);
    return d;
  };
  const base = (fields: Record<string, string>) =>
    Object.entries({ name: '"t"', description: '"d"', effect: '"read"', ...fields })
      .filter(([, v]) => v !== "")
      .map(([k, v]) => `  ${k}: ${v},`)
      .join("\n");

  it("CAVE1001 invalid name", () =>
    expect(rule("CAVE1001", base({ name: '"1bad name"' }), "name:").hint).toContain("letter first"));
  it("CAVE1002 reserved prefix", () =>
    expect(rule("CAVE1002", base({ name: '"cave_page"' }), "name:").hint).toContain("choose another name"));
  it("CAVE1003 missing effect, at the call", () =>
    expect(rule("CAVE1003", base({ effect: "" }), "tool({").hint).toContain("read, write, idempotent, external"));
  it("CAVE1004 invalid effect", () => rule("CAVE1004", base({ effect: '"reed"' }), "effect:"));
  it("CAVE1005 invalid timeout", () => rule("CAVE1005", base({ timeout: "1.5" }), "timeout:"));
  it("CAVE1006 invalid result policy", () =>
    expect(rule("CAVE1006", base({ result: '"stream"' }), "result:").hint).toContain("artifact({...})"));
  it("CAVE1007 unknown option with a suggestion", () =>
    expect(rule("CAVE1007", base({ timout: "5" }), "timout:").hint).toContain('Did you mean "timeout"?'));
  it("CAVE1008 network: true", () => rule("CAVE1008", base({ sandboxProfile: "{ network: true }" }), "network:"));
  it("CAVE1009 denied env name, at the element", () =>
    rule("CAVE1009", base({ sandboxProfile: '{ env: ["REGION", "AWS_SECRET_ACCESS_KEY"] }' }), '"AWS_SECRET'));
  it("CAVE1012 inputJSONSchema without input", () =>
    rule("CAVE1012", base({ inputJSONSchema: '{ type: "object" }' }), "inputJSONSchema:"));
  it("CAVE1012 input that is not a schema", () => rule("CAVE1012", base({ input: '"string"' }), "input:"));
  it("CAVE1013 bad semantics hash", () =>
    rule("CAVE1013", base({ schemaSemanticsSHA256: '"ABC"' }), "schemaSemanticsSHA256:"));
  it("CAVE1014 empty description", () => rule("CAVE1014", base({ description: '" "' }), "description:"));
  it("CAVE1016 allowRepeat not a boolean", () => rule("CAVE1016", base({ allowRepeat: '"yes"' }), "allowRepeat:"));
  it("CAVE1017 invalid sandbox mode", () => rule("CAVE1017", base({ sandbox: '"off"' }), "sandbox:"));
  it("CAVE1018 invalid sandbox profile", () =>
    rule("CAVE1018", base({ sandboxProfile: '{ env: ["A", "A"] }' }), '"A" ]'.replace(" ]", "]")));
  it("CAVE1019 a nested tool that is not a tool", () =>
    rule("CAVE1019", base({ nestedTools: '["lookup"]' }), '"lookup"'));
  it("CAVE1020 invalid artifact option, at the artifact", () => {
    const text =
      'import { tool, artifact } from "cave";\nexport const t = tool({ name: "t", description: "d", effect: "read", result: artifact({ strategy: "exact_ccr", recovery: "none" }), execute() {} });\n';
    const result = run({ "a.ts": text });
    expect(only(result, "CAVE1020")).toMatchObject(at(text, "recovery:"));
    expect(result.tools).toEqual([]);
  });

  it("CAVE1015 missing execute", () => {
    const text =
      'import { tool } from "cave";\nexport const t = tool({ name: "t", description: "d", effect: "read" });\n';
    expect(only(run({ "a.ts": text }), "CAVE1015")).toMatchObject(at(text, "tool({"));
  });

  it("CAVE1024 options that are not an object", () => {
    const text = 'import { tool, agent } from "cave";\nexport const t = tool("t");\nexport const a = agent();\n';
    const result = run({ "a.ts": text });
    expect(codes(result)).toEqual(["CAVE1024", "CAVE1024"]);
    expect(result.diagnostics[0]).toMatchObject(at(text, '"t"'));
    expect(result.diagnostics[0]!.hint).toContain("Call tool({");
  });

  it("CAVE1010 nesting is flat and CAVE1011 a read composite holds no effectful child, across modules", () => {
    const children = [
      'import { tool } from "cave";',
      'export const leaf = tool({ name: "leaf", description: "d", effect: "read", execute() {} });',
      'export const mid = tool({ name: "mid", description: "d", effect: "write", nestedTools: [leaf], execute() {} });',
    ].join("\n");
    const text =
      'import { tool } from "cave";\nimport { mid } from "./children.js";\nexport const top = tool({ name: "top", description: "d", effect: "read", nestedTools: [mid], execute() {} });\n';
    const result = run({ "children.ts": children, "top.ts": text });
    expect(only(result, "CAVE1010")).toMatchObject({ file: "top.ts", ...at(text, "mid]") });
    expect(only(result, "CAVE1011").message).toContain('contains "mid", whose effect is write');
    expect(result.tools.map((t) => t.name)).toEqual(["leaf", "mid"]);
  });

  it("CAVE1021 agent name, CAVE1023 agent tools, CAVE1022 duplicate names on one agent across modules", () => {
    const other =
      'import { tool } from "cave";\nexport const lookup = tool({ name: "lookup", description: "d", effect: "read", execute() {} });\n';
    const text = [
      'import { tool, agent } from "cave";',
      'import { lookup as first } from "./other.js";',
      'const lookup = tool({ name: "lookup", description: "d", effect: "read", execute() {} });',
      "export { lookup as second };",
      'export const a = agent({ name: "desk", tools: [first, lookup] });',
      'export const b = agent({ name: "bad name", tools: [first] });',
      'export const c = agent({ name: "empty", tools: [] });',
    ].join("\n");
    const result = run({ "other.ts": other, "a.ts": text });
    expect(only(result, "CAVE1022")).toMatchObject({ file: "a.ts", ...at(text, "lookup]") });
    expect(only(result, "CAVE1021")).toMatchObject(at(text, 'name: "bad name"'));
    expect(only(result, "CAVE1023")).toMatchObject(at(text, "tools: []"));
    expect(result.agents).toEqual([]);
  });

  it("CAVE3008 two tools share a name anywhere in the project, naming both places", () => {
    const a =
      'import { tool } from "cave";\nexport const x = tool({ name: "dup", description: "d", effect: "read", execute() {} });\n';
    const result = run({ "a.ts": a, "b.ts": a });
    const found = result.diagnostics.filter((d) => d.code === "CAVE3008");
    expect(found.map((d) => [d.file, d.message])).toEqual([
      ["a.ts", 'tool name "dup" is also defined at b.ts:2:18'],
      ["b.ts", 'tool name "dup" is also defined at a.ts:2:18'],
    ]);
    expect(found[0]!.hint).toContain("Rename one of the tools");
    expect(result.tools).toEqual([]);
  });

  it("CAVE3009 two agents share a name", () => {
    const a =
      'import { tool, agent } from "cave";\nexport const x = tool({ name: "x", description: "d", effect: "read", execute() {} });\nexport const a = agent({ name: "desk", tools: [x] });\nexport const b = agent({ name: "desk", tools: [x] });\n';
    const result = run({ "a.ts": a });
    expect(codes(result)).toEqual(["CAVE3009", "CAVE3009"]);
    expect(result.agents).toEqual([]);
    expect(result.tools.map((t) => t.name)).toEqual(["x"]);
  });
});
