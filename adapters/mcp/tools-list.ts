import type { Runtime, ToolInfo } from "../../runtime/index.js";
import { MCP_HINTS } from "../../runtime/index.js";

/** The dialect every schema cave locks is written in; MCP reads a schema without `$schema` as 2020-12. */
export const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The `_meta` keys cave puts on tools and results (prefixed, as MCP asks of implementation-specific keys). */
export const META = {
  effect: "cave/effect",
  timeoutMs: "cave/timeoutMs",
  result: "cave/result",
  sha256: "cave/sha256",
  lockIntegrity: "cave/lockIntegrity",
  receipt: "cave/receipt",
  code: "cave/code",
  run: "cave/run",
} as const;

export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown };
  readonly outputSchema?: { readonly type: "object"; readonly [key: string]: unknown };
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
  readonly _meta: Record<string, unknown>;
}

/** Whether a successful call's content is the validated result itself, an object as the output schema says: only then is outputSchema advertised. */
export function structuredOutput(info: ToolInfo): boolean {
  return info.result === "inline" && info.outputSchema !== null && info.outputSchema.type === "object";
}

/**
 * `tools/list` for a runtime, from describeTools(): the locked draft-07 schemas with an explicit
 * `$schema`, outputSchema only where the content is the result object, all four hints from the
 * effect, and in `_meta` the lock facts a client can pin (the entry's sha256, the lock's integrity).
 */
export function mcpTools(runtime: Runtime, infos: readonly ToolInfo[]): McpTool[] {
  return infos.map((info) => {
    const tool: McpTool = {
      name: info.name,
      description: info.description,
      inputSchema: { $schema: DRAFT_07, ...info.inputSchema, type: "object" },
      ...(structuredOutput(info)
        ? { outputSchema: { $schema: DRAFT_07, ...info.outputSchema!, type: "object" as const } }
        : {}),
      annotations: { ...MCP_HINTS[info.effect] },
      _meta: {
        [META.effect]: info.effect,
        [META.timeoutMs]: info.timeoutMs,
        [META.result]: info.result,
        [META.sha256]: info.sha256,
        [META.lockIntegrity]: runtime.lockIntegrity,
      },
    };
    return tool;
  });
}
