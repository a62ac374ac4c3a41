import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isInitializeRequest, McpError } from "@modelcontextprotocol/sdk/types.js";
import { RuntimeError, type Run, type RunOptions, type Runtime } from "../../runtime/index.js";
import { checkKeys } from "../shared/outcome.js";
import { createMcpServer, serverFor, type McpServerOptions } from "./server.js";
import { META } from "./tools-list.js";

export interface McpHttpOptions {
  /** Address to bind (default 127.0.0.1). Anything but a loopback address needs a token. */
  readonly host?: string;
  /** Port (default 0: any free port; the resolved address is returned). */
  readonly port?: number;
  /** Extra values accepted in the Host header besides the bound address, localhost and 127.0.0.1 (with the port). */
  readonly allowedHosts?: readonly string[];
  /** Origins accepted besides http://localhost:PORT and http://127.0.0.1:PORT; a request without Origin (not from a browser) is accepted. */
  readonly allowedOrigins?: readonly string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Options of each session's run (budget); its id is the MCP session id (stateless: the run key, or a random id). */
  readonly run?: Omit<RunOptions, "id">;
  /**
   * Stateless Streamable HTTP: no MCP session; every POST is served on its own and answered at once (GET and DELETE
   * are 405). A tools/call names its run in `_meta["cave/run"]` (a run id: 1 to 128 letters, digits and _ . : @ -);
   * calls with the same key share one run (its budget, repeat guard and receipts' runId). A call without a key is a
   * run of its own. Default false (sessionful: one run per MCP session).
   */
  readonly stateless?: boolean;
  /** Stateless: how many keyed runs are kept (default 1000); past it the least recently used is dropped (its key then starts a new run). */
  readonly maxKeyedRuns?: number;
  readonly server?: McpServerOptions;
  /** Largest request body accepted (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

export interface McpHttpServer {
  /** http://HOST:PORT/mcp */
  readonly url: string;
  /** The live sessions, by MCP session id (each with its own run); stateless: the keyed runs, by `_meta["cave/run"]`. */
  readonly sessions: ReadonlyMap<string, Run>;
  close(): Promise<void>;
}

const KEYS = [
  "host",
  "port",
  "allowedHosts",
  "allowedOrigins",
  "token",
  "run",
  "server",
  "maxBodyBytes",
  "stateless",
  "maxKeyedRuns",
] as const;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Streamable HTTP (the SDK's sessionful transport) at /mcp: one cave run per MCP session, named by the
 * session id, so a conversation's budget and repeat guard are its own. Before the SDK sees a request,
 * its Host header must name this server and its Origin (when a browser sent one) must be allowed: the
 * MCP spec requires both against DNS rebinding, where a web page's script reaches a loopback server
 * under a hostile name. An optional bearer token is compared in constant time.
 */
export async function serveHttp(runtime: Runtime, options?: McpHttpOptions): Promise<McpHttpServer> {
  const o = checkKeys(options, KEYS, "serveHttp()") as McpHttpOptions;
  const host = o.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host) && (o.token === undefined || o.token === "")) {
    throw new TypeError(
      `serveHttp(): binding ${host}, which is not a loopback address, needs a bearer token; set one, or bind 127.0.0.1`,
    );
  }
  const maxBody = o.maxBodyBytes ?? 4 * 1024 * 1024;
  if (o.stateless !== undefined && typeof o.stateless !== "boolean")
    throw new TypeError("serveHttp(): stateless must be a boolean");
  const maxKeyed = o.maxKeyedRuns ?? 1000;
  if (!(Number.isSafeInteger(maxKeyed) && maxKeyed >= 1))
    throw new TypeError("serveHttp(): maxKeyedRuns must be a positive integer");
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; run: Run }>();
  const runs = new Map<string, Run>();
  const token = o.token === undefined || o.token === "" ? undefined : Buffer.from(`Bearer ${o.token}`);

  let hosts = new Set<string>();
  let origins = new Set<string>();
  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((thrown: unknown) => {
      process.stderr.write(`cave serve: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
      if (!res.headersSent) refuse(res, 500, -32603, "internal error");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const hostHeader = (req.headers.host ?? "").toLowerCase();
    if (!hosts.has(hostHeader))
      return refuse(
        res,
        403,
        -32000,
        `Host ${JSON.stringify(hostHeader)} is not allowed (DNS rebinding protection); allowed: ${[...hosts].join(", ")}`,
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return refuse(
        res,
        403,
        -32000,
        `Origin ${JSON.stringify(origin)} is not allowed; allowed: ${[...origins].join(", ")}`,
      );
    if (token !== undefined) {
      const given = Buffer.from(req.headers.authorization ?? "");
      if (given.length !== token.length || !timingSafeEqual(given, token))
        return refuse(res, 401, -32000, "a bearer token is required (Authorization: Bearer <token>)");
    }
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/mcp") return refuse(res, 404, -32000, "the MCP endpoint is /mcp");

    if (o.stateless === true) return handleStateless(req, res);
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session === undefined) return refuse(res, 404, -32001, "unknown or expired session; initialize a new one");
      const body = req.method === "POST" ? await readJson(req, maxBody) : undefined;
      if (body === BAD_BODY) return refuse(res, 400, -32700, `the body is not JSON, or is over ${maxBody} bytes`);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST") return refuse(res, 400, -32000, "no Mcp-Session-Id: send initialize first");
    const body = await readJson(req, maxBody);
    if (body === BAD_BODY) return refuse(res, 400, -32700, `the body is not JSON, or is over ${maxBody} bytes`);
    if (!isInitializeRequest(body)) return refuse(res, 400, -32000, "no Mcp-Session-Id: send initialize first");

    const id = randomUUID();
    const run = runtime.startRun({ ...(o.run ?? {}), id });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, run });
        runs.set(sid, run);
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
      runs.delete(id);
    };
    const server = createMcpServer(run, o.server);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** The run a stateless call names in `_meta["cave/run"]` (kept, least recently used dropped first), or a run of its own. */
  function keyedRun(meta: Readonly<Record<string, unknown>> | undefined): Run {
    const key = meta?.[META.run];
    if (key === undefined) return runtime.startRun({ ...(o.run ?? {}) });
    let run = typeof key === "string" ? runs.get(key) : undefined;
    if (run !== undefined) {
      runs.delete(key as string);
    } else {
      try {
        run = runtime.startRun({ ...(o.run ?? {}), id: key as string });
      } catch (thrown) {
        if (thrown instanceof RuntimeError)
          throw new McpError(
            ErrorCode.InvalidParams,
            `_meta["${META.run}"] names the call's run: ${thrown.message.replace(/^startRun\(\) id/, "it")}`,
          );
        throw thrown;
      }
      if (runs.size >= maxKeyed) runs.delete(runs.keys().next().value as string);
    }
    runs.set(key as string, run);
    return run;
  }

  /** Stateless: a transport and server for this one POST, closed when its answer is sent. */
  async function handleStateless(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return refuse(
        res,
        405,
        -32000,
        "this server is stateless: POST JSON-RPC messages to /mcp (no session, no GET stream)",
      );
    }
    const body = await readJson(req, maxBody);
    if (body === BAD_BODY) return refuse(res, 400, -32700, `the body is not JSON, or is over ${maxBody} bytes`);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = serverFor(runtime, keyedRun, o.server);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(o.port ?? 0, host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : (o.port ?? 0);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  hosts = new Set([
    `${shownHost}:${port}`,
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    ...(o.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  origins = new Set([
    `http://${shownHost}:${port}`,
    `http://localhost:${port}`,
    `http://127.0.0.1:${port}`,
    ...(o.allowedOrigins ?? []).map((h) => h.toLowerCase()),
  ]);

  return {
    url: `http://${shownHost}:${port}/mcp`,
    sessions: runs,
    async close() {
      for (const session of [...sessions.values()]) await session.transport.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const BAD_BODY = Symbol("bad body");

function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(BAD_BODY);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        resolve(BAD_BODY);
      }
    });
    req.on("error", () => resolve(BAD_BODY));
  });
}

function refuse(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
