import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallOutcome, Run, Runtime, ToolInfo } from "../../runtime/index.js";
import { checkKeys, contentText, failureText } from "../shared/outcome.js";
import { HEARTBEAT_MS, startHeartbeat } from "./heartbeat.js";
import { META, mcpTools, structuredOutput, type McpTool } from "./tools-list.js";

export interface McpServerOptions {
  /** serverInfo.name (default "cave"). */
  readonly name?: string;
  /** serverInfo.version (default "0.1.0+" and the first 12 hex digits of the lock's integrity, so a client sees which lock it talks to). */
  readonly version?: string;
  /** Interval of progress heartbeats for tools locked with a timeout over 60 s (default 15000 ms). */
  readonly heartbeatMs?: number;
}

const OPTION_KEYS = ["name", "version", "heartbeatMs"] as const;

/** What tools/list answers, computed once per runtime (describeTools hashes every entry) and shared by every connection. */
const listed = new WeakMap<
  Runtime,
  { readonly tools: readonly McpTool[]; readonly byName: ReadonlyMap<string, ToolInfo> }
>();

function toolsOf(runtime: Runtime): {
  readonly tools: readonly McpTool[];
  readonly byName: ReadonlyMap<string, ToolInfo>;
} {
  let found = listed.get(runtime);
  if (found === undefined) {
    const infos = runtime.describeTools();
    found = { tools: mcpTools(runtime, infos), byName: new Map(infos.map((info) => [info.name, info])) };
    listed.set(runtime, found);
  }
  return found;
}

/**
 * An MCP server (the official SDK's low-level Server, so the locked JSON Schemas go out as they are and
 * cave's precompiled validator is the only one) whose every tools/call goes to `run`: one server, one
 * connection, one run. `listChanged` is false: a locked server never changes its tools.
 *
 * - A success is a text block (the content: a string as is, else JSON) and, where the tool advertises
 *   an outputSchema, the same object as structuredContent; the receipt is in `_meta["cave/receipt"]`.
 * - A failure is `isError: true` with the text `CODE: message` (and `_meta["cave/code"]`, the receipt).
 * - An unknown tool is a protocol error (InvalidParams), as MCP asks; its receipt is still recorded.
 * - The client's cancellation (notifications/cancelled) aborts the call's signal: CANCELLED.
 */
export function createMcpServer(run: Run, options?: McpServerOptions): Server {
  return serverFor(run.runtime, () => run, options);
}

/**
 * The server of createMcpServer, whose calls go to the run `runOf` picks from the call's `_meta` (stateless HTTP picks
 * one by `_meta["cave/run"]`); `runOf` throws an McpError to refuse the call.
 */
export function serverFor(
  runtime: Runtime,
  runOf: (meta: Readonly<Record<string, unknown>> | undefined) => Run,
  options?: McpServerOptions,
): Server {
  const o = checkKeys(options, OPTION_KEYS, "createMcpServer()");
  const heartbeatMs = o.heartbeatMs === undefined ? HEARTBEAT_MS : o.heartbeatMs;
  if (!(Number.isSafeInteger(heartbeatMs) && (heartbeatMs as number) >= 1))
    throw new TypeError("createMcpServer(): heartbeatMs must be a positive integer of milliseconds");
  const version =
    typeof o.version === "string" ? o.version : `0.1.0+${runtime.lockIntegrity.replace(/^sha256-/, "").slice(0, 12)}`;
  const server = new Server(
    { name: typeof o.name === "string" ? o.name : "cave", version },
    { capabilities: { tools: { listChanged: false } } },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsOf(runtime).tools as McpTool[] }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const info = toolsOf(runtime).byName.get(name);
    const run = runOf(request.params._meta as Readonly<Record<string, unknown>> | undefined);
    const stop =
      info === undefined
        ? undefined
        : startHeartbeat(
            name,
            info.timeoutMs,
            request.params._meta?.progressToken,
            extra.sendNotification as never,
            heartbeatMs as number,
          );
    let outcome: CallOutcome;
    try {
      outcome = await run.call(name, request.params.arguments ?? {}, {
        signal: extra.signal,
        correlationId: String(extra.requestId),
      });
    } finally {
      stop?.();
    }
    if (outcome.ok) {
      return {
        content: [{ type: "text" as const, text: contentText(outcome.content) }],
        ...(info !== undefined && structuredOutput(info) && isRecord(outcome.content)
          ? { structuredContent: outcome.content }
          : {}),
        _meta: { [META.receipt]: outcome.receipt },
      };
    }
    if (outcome.error.code === "UNKNOWN_TOOL") {
      throw new McpError(ErrorCode.InvalidParams, failureText(outcome.error), {
        [META.code]: outcome.error.code,
        [META.receipt]: outcome.receipt,
      });
    }
    return {
      content: [{ type: "text" as const, text: failureText(outcome.error) }],
      isError: true,
      _meta: { [META.code]: outcome.error.code, [META.receipt]: outcome.receipt },
    };
  });
  return server;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
