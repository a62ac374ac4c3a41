import type { Effect } from "../../src/contract/effects.js";
import type { RuntimeLock } from "../lock/read-lock.js";
import { RuntimeError } from "../errors.js";
import { reservedToolsFor } from "../results/reserved.js";

export type DeclarationFormat = "openai" | "anthropic" | "mcp";

/** OpenAI Chat Completions `tools` entry. */
export interface OpenAIToolDeclaration {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
  };
}

/** Anthropic Messages `tools` entry. */
export interface AnthropicToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Record<string, unknown>;
}

/** MCP `tools/list` entry; the four behaviour hints are always explicit. */
export interface McpToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

export type DeclarationsOf<F extends DeclarationFormat> = F extends "openai"
  ? OpenAIToolDeclaration[]
  : F extends "anthropic"
    ? AnthropicToolDeclaration[]
    : McpToolDeclaration[];

/**
 * The schema declared for a tool whose lock has no input JSON Schema (no `input`, or an opaque
 * validator without one): an object with no properties and no others allowed, telling the model to
 * call it with `{}`. Providers require an object schema; the runtime itself only requires JSON data.
 */
export const NO_INPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: "object",
  properties: {},
  additionalProperties: false,
});

/**
 * MCP hints follow from the effect alone. `idempotent` mutates (possibly overwriting, so not
 * claimed additive) but is safe to repeat; only `external` is declared to leave the process.
 */
export const MCP_HINTS: Readonly<Record<Effect, McpToolDeclaration["annotations"]>> = Object.freeze({
  read: Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
  write: Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }),
  idempotent: Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }),
  external: Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }),
});

/** Fresh declarations of every locked tool, sorted by name (callers may change them without touching the lock). */
export function toolDeclarations<F extends DeclarationFormat>(lock: RuntimeLock, format: F): DeclarationsOf<F> {
  if (format !== "openai" && format !== "anthropic" && format !== "mcp") {
    throw new RuntimeError(
      "OPTIONS_INVALID",
      `toolDeclarations() format must be "openai", "anthropic" or "mcp" (got ${typeof format === "string" ? JSON.stringify(format) : typeof format})`,
    );
  }
  const out: unknown[] = [];
  for (const name of lock.toolNames) {
    const tool = lock.tool(name)!;
    const schema = JSON.parse(JSON.stringify(tool.input?.jsonSchema ?? NO_INPUT_SCHEMA)) as Record<string, unknown>;
    const description = tool.description;
    if (format === "openai") out.push({ type: "function", function: { name, description, parameters: schema } });
    else if (format === "anthropic") out.push({ name, description, input_schema: schema });
    else out.push({ name, description, inputSchema: schema, annotations: { ...MCP_HINTS[tool.effect] } });
  }
  // cave_page / cave_recover, only when a locked plan refers the model to them (after the locked tools).
  for (const reserved of reservedToolsFor(lock)) {
    const schema = JSON.parse(JSON.stringify(reserved.inputSchema)) as Record<string, unknown>;
    if (format === "openai")
      out.push({
        type: "function",
        function: { name: reserved.name, description: reserved.description, parameters: schema },
      });
    else if (format === "anthropic")
      out.push({ name: reserved.name, description: reserved.description, input_schema: schema });
    else
      out.push({
        name: reserved.name,
        description: reserved.description,
        inputSchema: schema,
        annotations: { ...MCP_HINTS[reserved.effect] },
      });
  }
  return out as DeclarationsOf<F>;
}
