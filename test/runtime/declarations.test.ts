import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, MCP_HINTS, NO_INPUT_SCHEMA, type Runtime } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./helpers.js";

let runtime: Runtime;
beforeAll(async () => {
  runtime = await createRuntime({ root: await builtProject("pipeline"), mode: "host" });
});
afterAll(removeCopies);

describe("toolDeclarations", () => {
  it("declares every locked tool for OpenAI, sorted, with the locked input schema", () => {
    const declarations = runtime.toolDeclarations("openai");
    // Then cave_recover, declared because this project's plans store exact results (test/results covers cave_page too).
    expect(declarations.map((d) => d.function.name)).toEqual([...runtime.toolNames, "cave_recover"]);
    const lookup = declarations.find((d) => d.function.name === "lookup")!;
    expect(lookup).toEqual({
      type: "function",
      function: {
        name: "lookup",
        description: "Read the refund window of a region.",
        parameters: {
          type: "object",
          properties: { region: { type: "string", minLength: 2 } },
          required: ["region"],
          additionalProperties: false,
        },
      },
    });
  });

  it("declares schema-less tools as taking an empty object", () => {
    const echo = runtime.toolDeclarations("anthropic").find((d) => d.name === "echo")!;
    expect(echo).toEqual({ name: "echo", description: "Return the arguments.", input_schema: NO_INPUT_SCHEMA });
  });

  it("uses the opaque validator's draft-07 JSON Schema when the lock has one", () => {
    const zod = runtime.toolDeclarations("anthropic").find((d) => d.name === "zod_tool")!;
    expect(zod.input_schema).toMatchObject({ type: "object", properties: { n: { type: "string" } }, required: ["n"] });
  });

  it("gives MCP all four annotations, derived from the effect", () => {
    const byName = new Map(runtime.toolDeclarations("mcp").map((d) => [d.name, d]));
    expect(byName.get("lookup")!.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get("write_tool")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(byName.get("idem_tool")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get("ext_tool")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    for (const declaration of byName.values())
      expect(Object.keys(declaration.annotations).sort()).toEqual([
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
        "readOnlyHint",
      ]);
    expect(Object.keys(MCP_HINTS).sort()).toEqual(["external", "idempotent", "read", "write"]);
  });

  it("returns fresh copies, and refuses an unknown format", () => {
    const first = runtime.toolDeclarations("mcp");
    (first[0]!.inputSchema as Record<string, unknown>).type = "changed";
    expect(runtime.toolDeclarations("mcp")[0]!.inputSchema.type).not.toBe("changed");
    expect(() => runtime.toolDeclarations("gemini" as never)).toThrow(/format must be "openai", "anthropic" or "mcp"/);
  });
});
