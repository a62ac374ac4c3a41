import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyse } from "../../compiler/analyse/index.js";
import { discover } from "../../compiler/discover/index.js";
import { evaluate } from "../../compiler/evaluate/index.js";
import { stage } from "../../compiler/stage/index.js";
import type { AnalyseResult, EvaluateResult, StageResult } from "../../compiler/types.js";
import { removeCopies, writeProject } from "../support/projects.js";
import { REPO_ROOT } from "../support/golden.js";

afterAll(removeCopies);

const project = writeProject;

interface Run {
  readonly root: string;
  readonly analysed: AnalyseResult;
  readonly staged: StageResult;
  readonly result: EvaluateResult;
}

/** Discover, analyse and stage for real (they must be clean), then evaluate. */
async function run(
  root: string,
  options: { timeoutMs?: number; edit?: (analysed: AnalyseResult) => AnalyseResult } = {},
): Promise<Run> {
  const found = await discover(root);
  const clean = analyse(root, found.files);
  expect(clean.diagnostics).toEqual([]);
  const staged = await stage(root, clean.modules, found.config);
  expect(staged.diagnostics).toEqual([]);
  const analysed = options.edit ? options.edit(clean) : clean;
  const result = await evaluate(
    root,
    staged,
    analysed,
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  return { root, analysed, staged, result };
}

const fixture = (name: string) => join(REPO_ROOT, "fixtures", name);

/** A tool module; `before` goes between the imports and the tool, `options` inside tool({...}). */
const toolModule = (name: string, before = "", options = "") => `import { schema, tool } from "cave";
${before}
export const ${name} = tool({
  name: "${name}",
  description: "Does ${name}.",
  effect: "read",
  input: schema.object({ id: schema.string() }),${options}
  async execute({ id }) {
    return { id };
  },
});
`;

function noMachinePaths(result: EvaluateResult, root: string): void {
  const text = JSON.stringify(result);
  expect(text).not.toContain(root);
  expect(text).not.toContain(REPO_ROOT);
  expect(text).not.toContain("data:text/javascript");
}

describe("evaluate: reading definitions", () => {
  it("reads TypeBox schemas as plain JSON Schema and every lock-relevant field", async () => {
    const root = project({
      "tools/orders.ts": `import { agent, artifact, schema, tool } from "cave";
export const lookupOrder = tool({
  name: "lookup_order",
  description: "Looks up an order by id.",
  effect: "read",
  timeout: 5000,
  allowRepeat: true,
  sandboxProfile: { env: ["ORDERS_REGION", "LOG_LEVEL"] },
  result: artifact({ maxInlineTokens: 800 }),
  input: schema.object({ id: schema.string({ minLength: 3 }), expand: schema.optional(schema.boolean()) }),
  output: schema.object({ id: schema.string(), total: schema.integer({ minimum: 0 }) }),
  async execute({ id }) {
    return { id, total: 1 };
  },
});
export const orderDesk = tool({
  name: "order_desk",
  description: "Answers order questions.",
  effect: "read",
  sandbox: "none",
  result: "page",
  nestedTools: [lookupOrder],
  async execute() {
    return null;
  },
});
export const support = agent({ name: "support", description: "Support desk.", tools: [orderDesk, lookupOrder] });
`,
    });
    const { result } = await run(root);
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.map((t) => t.exportName)).toEqual(["lookupOrder", "orderDesk"]);
    const [lookup, desk] = result.tools;
    expect(lookup).toEqual({
      module: "tools/orders.ts",
      exportName: "lookupOrder",
      name: "lookup_order",
      description: "Looks up an order by id.",
      effect: "read",
      timeoutMs: 5000,
      allowRepeat: true,
      sandbox: {
        mode: "required",
        network: false,
        env: ["LOG_LEVEL", "ORDERS_REGION"],
        egress: [],
        secrets: {},
        fs: null,
        addons: false,
      },
      nestedTools: [],
      result: { policy: "artifact", artifact: { strategy: "page", maxInlineTokens: 800, recovery: "exact_ccr" } },
      input: {
        kind: "typebox",
        jsonSchema: {
          type: "object",
          additionalProperties: false,
          required: ["id"],
          properties: { id: { type: "string", minLength: 3 }, expand: { type: "boolean" } },
        },
      },
      output: {
        kind: "typebox",
        jsonSchema: {
          type: "object",
          additionalProperties: false,
          required: ["id", "total"],
          properties: { id: { type: "string" }, total: { type: "integer", minimum: 0 } },
        },
      },
      schemaSemanticsSHA256: null,
    });
    // Plain data: no TypeBox symbols survive.
    expect(Object.getOwnPropertySymbols(lookup!.input!.jsonSchema)).toEqual([]);
    expect(desk).toMatchObject({
      name: "order_desk",
      sandbox: { mode: "none", network: false, env: [] },
      nestedTools: ["lookup_order"],
      result: { policy: "page" },
      input: null,
      output: null,
    });
    expect(result.agents).toEqual([
      {
        module: "tools/orders.ts",
        exportName: "support",
        name: "support",
        description: "Support desk.",
        tools: ["lookup_order", "order_desk"],
      },
    ]);
  });

  it("asks zod, valibot and arktype for draft-07 JSON Schema, and uses inputJSONSchema for a validation-only validator", async () => {
    const { result } = await run(fixture("evaluate-standard-schemas"));
    expect(result.diagnostics).toEqual([]);
    const byName = new Map(result.tools.map((t) => [t.name, t]));
    expect(byName.get("lookup_order")!.input).toEqual({
      kind: "standard",
      vendor: "zod",
      jsonSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { id: { type: "string", minLength: 1 }, expand: { type: "boolean" } },
        required: ["id"],
      },
    });
    expect(byName.get("lookup_order")!.output).toMatchObject({
      kind: "standard",
      vendor: "zod",
      jsonSchema: { type: "object", required: ["id", "total"] },
    });
    expect(byName.get("lookup_customer")!.input).toEqual({
      kind: "standard",
      vendor: "valibot",
      jsonSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { email: { type: "string", format: "email" } },
        required: ["email"],
      },
    });
    expect(byName.get("refund_order")!.input).toEqual({
      kind: "standard",
      vendor: "valibot",
      jsonSchema: {
        type: "object",
        properties: { id: { type: "string" }, cents: { type: "number" } },
        required: ["id", "cents"],
        additionalProperties: false,
      },
    });
    expect(byName.get("schedule_callback")!.input).toMatchObject({
      kind: "standard",
      vendor: "arktype",
      jsonSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        required: ["phone"],
        properties: { phone: { type: "string" }, minutes: { type: "integer", minimum: 0 } },
      },
    });
    expect(byName.get("schedule_callback")!.schemaSemanticsSHA256).toBe(
      "aa11bb22cc33dd44ee55ff6600112233445566778899aabbccddeeff00112233",
    );
  });
});

describe("evaluate: the child process", () => {
  it("never calls execute", async () => {
    // Each execute would end or hang the evaluation process, or throw, if it ran.
    const root = project({
      "tools/a.ts": toolModule("abortIfRun").replace("return { id };", "process.abort(); return { id };"),
      "tools/b.ts": toolModule("hangIfRun").replace("return { id };", "for (;;) {} return { id };"),
      "tools/c.ts": toolModule("throwIfRun").replace(
        "return { id };",
        'throw new Error("execute ran"); return { id };',
      ),
    });
    const { result } = await run(root, { timeoutMs: 5000 });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.map((t) => t.name)).toEqual(["abortIfRun", "hangIfRun", "throwIfRun"]);
  });

  it("runs with an empty environment and without file system or child process access", async () => {
    const secretFile = join(project({ ".env": "SECRET=1\n" }), ".env");
    process.env.CAVE_TEST_SECRET = "s3cr3t";
    try {
      const root = project({
        "tools/probe.ts": toolModule(
          "probe",
          `import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
const attempt = (f: () => unknown) => { try { f(); return "allowed"; } catch (e) { return (e as { code?: string }).code ?? String(e); } };
const seen = {
  env: Object.keys(process.env),
  read: attempt(() => readFileSync(${JSON.stringify(secretFile)})),
  write: attempt(() => writeFileSync(${JSON.stringify(join(tmpdir(), "cave-evaluate-should-not-exist"))}, "x")),
  spawn: attempt(() => execFileSync("true")),
};
if (seen.env.length > 0 || seen.read !== "ERR_ACCESS_DENIED" || seen.write !== "ERR_ACCESS_DENIED" || !["ERR_ACCESS_DENIED", "ERR_SANDBOX_DENIED"].includes(seen.spawn)) throw new Error("sandbox: " + JSON.stringify(seen));`,
        ),
      });
      const { result } = await run(root);
      expect(result.diagnostics).toEqual([]);
      expect(result.tools.map((t) => t.name)).toEqual(["probe"]);
      expect(existsSync(join(tmpdir(), "cave-evaluate-should-not-exist"))).toBe(false);
    } finally {
      delete process.env.CAVE_TEST_SECRET;
    }
  });

  it("denies network access at import (Node 20's permission model does not), so evaluation is hermetic", async () => {
    const root = project({
      "tools/a.ts": toolModule(
        "fetchesSchema",
        'const schemaText = await (await fetch("http://127.0.0.1:9/schema.json")).text();',
      ),
      "tools/b.ts": toolModule("connects", 'import { connect } from "node:net";\nconnect(9, "127.0.0.1");'),
    });
    const { result } = await run(root);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      [
        "CAVE5001",
        "tools/a.ts",
        "tools/a.ts threw while being imported at build time: Error: fetch is denied in the cave sandbox (no network access) (thrown at tools/a.ts:2:33)",
      ],
      [
        "CAVE5001",
        "tools/b.ts",
        "tools/b.ts threw while being imported at build time: Error: net.connect is denied in the cave sandbox (no network access) (thrown at tools/b.ts:3:1)",
      ],
    ]);
  });

  it("reports a module that throws on import (CAVE5001), keeping the message without machine paths, and reads the others", async () => {
    const root = project({
      "tools/a.ts": toolModule("first"),
      "tools/b.ts": toolModule(
        "broken",
        'throw new Error("cannot start from " + import.meta.url + " in " + process.cwd());',
      ),
      "tools/c.ts": toolModule("third"),
    });
    const { result } = await run(root);
    expect(result.tools.map((t) => t.name)).toEqual(["first", "third"]);
    expect(result.diagnostics).toHaveLength(1);
    const [d] = result.diagnostics;
    expect(d).toMatchObject({ code: "CAVE5001", severity: "error", file: "tools/b.ts" });
    expect(d!.message).toBe(
      "tools/b.ts threw while being imported at build time: Error: cannot start from .cave/bundles/tools/b.ts in . (thrown at tools/b.ts:2:7)",
    );
    expect(d!.hint).toMatch(/move work that needs those into execute/);
    noMachinePaths(result, root);
  });

  it("the fixture: a module that needs an environment variable", async () => {
    const { result } = await run(fixture("evaluate-throws-on-import"));
    expect(result.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      [
        "CAVE5001",
        "orders.ts",
        "orders.ts threw while being imported at build time: Error: ORDERS_REGION is not set (thrown at orders.ts:4:20)",
      ],
    ]);
  });

  it("kills a module that hangs past the limit (CAVE5002) and carries on with the others in a fresh child", async () => {
    const root = project({
      "tools/a.ts": toolModule("first"),
      "tools/b.ts": toolModule("spins", "for (;;) {}"),
      "tools/c.ts": toolModule("waits", "await new Promise(() => {});"),
      "tools/d.ts": toolModule("last"),
    });
    const { result } = await run(root, { timeoutMs: 1500 });
    expect(result.tools.map((t) => t.name)).toEqual(["first", "last"]);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      [
        "CAVE5002",
        "tools/b.ts",
        "importing tools/b.ts did not finish within 1500 ms, so the evaluation process was killed",
      ],
      [
        "CAVE5002",
        "tools/c.ts",
        "importing tools/c.ts did not finish within 1500 ms, so the evaluation process was killed",
      ],
    ]);
    expect(result.diagnostics[0]!.hint).toMatch(/Remove the loop or never-settling await from module scope/);
  });

  it("reports process.exit and a killed process (CAVE5003), naming the module, and reads the others", async () => {
    const root = project({
      "tools/a.ts": toolModule(
        "exits",
        'if (!process.env.API_KEY) { console.error("API_KEY missing"); process.exit(3); }',
      ),
      "tools/b.ts": toolModule("kills", 'process.kill(process.pid, "SIGKILL");'),
      "tools/c.ts": toolModule("fine"),
    });
    const { result } = await run(root);
    expect(result.tools.map((t) => t.name)).toEqual(["fine"]);
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ["CAVE5003", "tools/a.ts"],
      ["CAVE5003", "tools/b.ts"],
    ]);
    expect(result.diagnostics[0]!.message).toBe("tools/a.ts called process.exit(3) while being imported at build time");
    expect(result.diagnostics[1]!.message).toBe(
      "the build-time evaluation process ended while importing tools/b.ts: it was ended by SIGKILL",
    );
    expect(result.diagnostics[1]!.hint).toMatch(/must not end or crash the process at import time/);
  });
});

describe("evaluate: definitions that cannot be locked", () => {
  it("refuses a schema that is not plain JSON (CAVE5004), naming the path", async () => {
    const root = project({
      "tools/a.ts": toolModule(
        "withFunction",
        "",
        '\n  output: schema.object({ at: schema.string({ default: (() => "now") as unknown as string }) }),',
      ),
    });
    const { result } = await run(root);
    expect(result.tools).toEqual([]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: "CAVE5004", file: "tools/a.ts", line: 3 });
    expect(result.diagnostics[0]!.message).toBe(
      "tool tools/a.ts export withFunction cannot be read as data: output.properties.at.default is a function, which JSON cannot hold",
    );
    expect(result.diagnostics[0]!.hint).toMatch(/plain JSON Schema data/);
  });

  it("refuses a Standard Schema output that cannot be converted to draft-07 (CAVE5004)", async () => {
    const { result } = await run(fixture("evaluate-unreadable-schema"));
    expect(result.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      [
        "CAVE5004",
        "orders.ts",
        "tool orders.ts export orderTotal cannot be read as data: output: zod could not convert it to draft-07 JSON Schema (Error: Transforms cannot be represented in JSON Schema)",
      ],
    ]);
  });

  it("refuses Standard Schema validators without schemaSemanticsSHA256 (CAVE5007) and says how to compute one", async () => {
    const root = project({
      "tools/zod.ts": `import { tool } from "cave";
import { z } from "zod";
export const viaZod = tool({ name: "via_zod", description: "Zod.", effect: "read", input: z.object({ id: z.string() }), output: z.object({ ok: z.boolean() }), async execute() { return { ok: true }; } });
`,
      "tools/valibot.ts": `import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { tool } from "cave";
import * as v from "valibot";
export const viaValibot = tool({ name: "via_valibot", description: "Valibot.", effect: "read", input: toStandardJsonSchema(v.object({ id: v.string() })), async execute() { return 1; } });
`,
      "tools/arktype.ts": `import { type } from "arktype";
import { tool } from "cave";
export const viaArktype = tool({ name: "via_arktype", description: "ArkType.", effect: "read", input: type({ id: "string" }), async execute() { return 1; } });
`,
    });
    const { result } = await run(root);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ["CAVE5007", "tools/arktype.ts", 3],
      ["CAVE5007", "tools/valibot.ts", 4],
      ["CAVE5007", "tools/zod.ts", 3],
    ]);
    expect(result.diagnostics[2]!.message).toBe(
      'tool "via_zod": input (zod) and output (zod) are Standard Schema validators without schemaSemanticsSHA256, and locks refuse opaque validator identity',
    );
    expect(result.diagnostics[1]!.message).toBe(
      'tool "via_valibot": input (valibot) is a Standard Schema validator without schemaSemanticsSHA256, and locks refuse opaque validator identity',
    );
    for (const d of result.diagnostics)
      expect(d.hint).toMatch(/^Add schemaSemanticsSHA256: "<64 lowercase hex>".*sha256sum/);
  });
});

describe("evaluate: cross-check with the analysis", () => {
  it("reports every field that differs from what analysis read (CAVE5005), naming both values", async () => {
    const root = project({ "tools/a.ts": toolModule("lookup") });
    const { result } = await run(root, {
      // As if the source had said something else than what runs.
      edit: (analysed) => ({
        ...analysed,
        tools: analysed.tools.map((t) => ({
          ...t,
          timeoutMs: 1000,
          result: { policy: "inline" as const },
          description: "Something else.",
        })),
      }),
    });
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'tool "lookup" (export lookup): description is "Does lookup." when the module runs, but the source says "Something else."',
      'tool "lookup" (export lookup): timeout is 30000 when the module runs, but the source says 1000',
      'tool "lookup" (export lookup): result is {"policy":"auto"} when the module runs, but the source says {"policy":"inline"}',
    ]);
    for (const d of result.diagnostics)
      expect(d).toMatchObject({ code: "CAVE5005", file: "tools/a.ts", line: 3, column: 23 });
    expect(result.diagnostics[0]!.hint).toMatch(/write it as a literal/);
  });

  it("the fixture: an array const mutated after its declaration", async () => {
    const { result } = await run(fixture("evaluate-computed-value"));
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "CAVE5005",
        'tool "lookup_order" (export lookupOrder): sandboxProfile.env is ["ORDERS_LOG_LEVEL","ORDERS_REGION"] when the module runs, but the source says ["ORDERS_REGION"]',
      ],
    ]);
  });

  it("refuses a tool made by a wrapper function that analysis cannot see (CAVE5006)", async () => {
    const { result } = await run(fixture("evaluate-wrapper-tool"));
    expect(result.tools.map((t) => t.name)).toEqual(["lookup_order"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: "CAVE5006", file: "tools/orders.ts" });
    expect(result.diagnostics[0]!.message).toBe(
      'tools/orders.ts exports tool "lookup_customer" as lookupCustomer, but no tool() call for it was found in the source',
    );
    expect(result.diagnostics[0]!.hint).toMatch(/Call tool\(\) or agent\(\) imported from "cave" directly/);
  });

  it("accepts a module that re-exports another module's tool", async () => {
    const root = project({
      "tools/orders.ts": toolModule("lookupOrder"),
      "tools/desk.ts": `import { agent } from "cave";
import { lookupOrder } from "./orders.js";
export { lookupOrder };
export const desk = agent({ name: "desk", tools: [lookupOrder] });
`,
    });
    const { result } = await run(root);
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.map((t) => [t.module, t.exportName])).toEqual([["tools/orders.ts", "lookupOrder"]]);
    expect(result.agents.map((a) => [a.name, a.description, a.tools])).toEqual([["desk", null, ["lookupOrder"]]]);
  });
});

describe("evaluate: options", () => {
  it("rejects unknown options and a bad timeout", async () => {
    const empty: StageResult = { modules: new Map(), sdk: null, inputFiles: new Map(), diagnostics: [] };
    const analysed = { tools: [], agents: [], modules: [], localExports: {}, diagnostics: [] } as AnalyseResult;
    await expect(evaluate("/", empty, analysed, { timeout: 5 } as never)).rejects.toThrow(
      /does not know the option\(s\) timeout/,
    );
    await expect(evaluate("/", empty, analysed, { timeoutMs: 0 })).rejects.toThrow(
      /timeoutMs must be a positive integer/,
    );
    await expect(evaluate("/", empty, analysed, { timeoutMs: undefined })).resolves.toEqual({
      tools: [],
      agents: [],
      diagnostics: [],
    });
  });
});
