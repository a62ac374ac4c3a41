import { appendFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { createRuntime, type Runtime } from "../../../runtime/index.js";
import { RuntimeError } from "../../../runtime/errors.js";

import { SERVE_USAGE } from "../usage-lines.js";
import { thrownText } from "../../../src/contract/thrown-message.mjs";

export { SERVE_USAGE };

/**
 * Budgets of a served run. A server lives for hours (an MCP host keeps it for its whole session), so
 * the runtime's defaults for a task (1,000 calls, 10 minutes) would refuse every call after ten
 * minutes. One stdio connection or HTTP session is one run: a reconnect starts a new one.
 */
export const SERVE_BUDGET = { maxCalls: 10_000, maxWallMs: 24 * 60 * 60 * 1000 } as const;

interface ServeIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * `cave serve`: the locked tools as an MCP server (cave/mcp, loaded only here). stdio by default (one
 * connection, one run); --http HOST:PORT serves Streamable HTTP at /mcp, on loopback unless a token is
 * set (one run per MCP session). Exit 0 when the client closes stdio; 1 on bad usage or a refused lock.
 */
export async function serveCommand(args: readonly string[], io: ServeIO): Promise<number> {
  let values: {
    root?: string;
    fixture?: boolean;
    http?: string;
    "token-env"?: string;
    "allow-host"?: string[];
    "allow-origin"?: string[];
    "max-calls"?: string;
    "max-wall-ms"?: string;
    "run-id"?: string;
    receipts?: string;
    "heartbeat-ms"?: string;
    stateless?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        root: { type: "string" },
        fixture: { type: "boolean" },
        http: { type: "string" },
        "token-env": { type: "string" },
        "allow-host": { type: "string", multiple: true },
        "allow-origin": { type: "string", multiple: true },
        "max-calls": { type: "string" },
        "max-wall-ms": { type: "string" },
        "run-id": { type: "string" },
        receipts: { type: "string" },
        "heartbeat-ms": { type: "string" },
        stateless: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (thrown) {
    return usage(io, thrownText(thrown));
  }
  const maxCalls = positive(values["max-calls"], SERVE_BUDGET.maxCalls);
  const maxWallMs = positive(values["max-wall-ms"], SERVE_BUDGET.maxWallMs);
  if (maxCalls === undefined) return usage(io, "--max-calls must be a positive integer");
  if (maxWallMs === undefined) return usage(io, "--max-wall-ms must be a positive integer of milliseconds");
  const heartbeatMs = positive(values["heartbeat-ms"], 15_000);
  if (heartbeatMs === undefined) return usage(io, "--heartbeat-ms must be a positive integer of milliseconds");
  // Receipts as JSON lines, appended (and awaited) before each outcome is answered: the server's audit trail.
  const receiptsFile = values.receipts === undefined ? undefined : resolve(io.cwd, values.receipts);
  const receipts =
    receiptsFile === undefined
      ? undefined
      : { record: (receipt: unknown) => appendFile(receiptsFile, `${JSON.stringify(receipt)}\n`) };
  let token: string | undefined;
  if (values["token-env"] !== undefined) {
    token = io.env[values["token-env"]];
    if (token === undefined || token === "")
      return usage(
        io,
        `--token-env ${values["token-env"]}: that environment variable is not set (the token is read from the environment so it never shows in a process list)`,
      );
  }
  let listen: { host: string; port: number } | undefined;
  if (values.http !== undefined) {
    listen = hostPort(values.http);
    if (listen === undefined)
      return usage(io, `--http takes HOST:PORT (e.g. 127.0.0.1:8808), got ${JSON.stringify(values.http)}`);
  }
  if (
    values.http === undefined &&
    (token !== undefined || values["allow-host"] !== undefined || values["allow-origin"] !== undefined)
  ) {
    return usage(io, "--token-env, --allow-host and --allow-origin apply to --http only");
  }
  if (values.http === undefined && values.stateless === true)
    return usage(io, "--stateless applies to --http only (stdio is one connection, one run)");

  // The transport's module (the MCP SDK: hundreds of ms to load) loads while createRuntime reads the lock: their
  // file reads overlap. Only the transport served is loaded: the HTTP one brings an HTTP framework stdio never uses.
  const stdioAdapter = listen === undefined ? loadAdapter(() => import("../../../adapters/mcp/stdio.js")) : undefined;
  const httpAdapter = listen === undefined ? undefined : loadAdapter(() => import("../../../adapters/mcp/http.js"));
  (stdioAdapter ?? httpAdapter)!.catch(() => {}); // awaited below, unless the runtime is refused first
  let runtime: Runtime;
  try {
    runtime = await createRuntime({
      root: resolve(io.cwd, values.root ?? "."),
      mode: values.fixture ? "fixture" : "host",
      budget: { maxCalls, maxWallMs },
      ...(receipts === undefined ? {} : { receipts }),
    });
  } catch (thrown) {
    if (!(thrown instanceof RuntimeError)) throw thrown;
    io.stderr(`cave serve: ${thrown.code}: ${thrown.message}\n`);
    return 1;
  }
  if (listen === undefined) {
    const mcp = await stdioAdapter!;
    if (mcp === undefined) return missingSdk(io, runtime);
    let run;
    try {
      run = runtime.startRun(values["run-id"] === undefined ? undefined : { id: values["run-id"] });
    } catch (thrown) {
      if (!(thrown instanceof RuntimeError)) throw thrown;
      return usage(io, thrown.message);
    }
    io.stderr(
      `cave serve: ${runtime.toolNames.length} locked tools over stdio (${runtime.mode} mode, run ${run.id}, budget ${maxCalls} calls / ${maxWallMs} ms per run, lock ${runtime.lockIntegrity})\n`,
    );
    try {
      await mcp.serveStdio(run, { heartbeatMs });
    } finally {
      runtime.close();
    }
    return 0;
  }
  if (values["run-id"] !== undefined)
    return usage(
      io,
      '--run-id applies to stdio; over HTTP each MCP session is its own run, named by its session id (with --stateless, by the call\'s _meta["cave/run"])',
    );
  const mcp = await httpAdapter!;
  if (mcp === undefined) return missingSdk(io, runtime);
  let served;
  try {
    served = await mcp.serveHttp(runtime, {
      host: listen.host,
      port: listen.port,
      token,
      allowedHosts: values["allow-host"],
      allowedOrigins: values["allow-origin"],
      server: { heartbeatMs },
      stateless: values.stateless === true,
    });
  } catch (thrown) {
    runtime.close();
    io.stderr(`cave serve: ${thrownText(thrown)}\n`);
    return 1;
  }
  io.stderr(
    `cave serve: ${runtime.toolNames.length} locked tools at ${served.url} (${runtime.mode} mode, budget ${maxCalls} calls / ${maxWallMs} ms per ${values.stateless === true ? 'run (stateless: a run per _meta["cave/run"] key, else per call)' : "session"}, lock ${runtime.lockIntegrity}${token === undefined ? "" : ", bearer token required"})\n`,
  );
  // The URL on stdout, alone on its line, so a script (or a test) can read where it is served.
  io.stdout(`${served.url}\n`);
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await served.close();
  runtime.close();
  return 0;
}

/** A cave/mcp module, or undefined when the MCP SDK (an optional peer dependency: only `cave serve` needs it) is not installed. */
async function loadAdapter<T>(load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (thrown) {
    if (
      (thrown as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
      String((thrown as Error).message).includes("@modelcontextprotocol/sdk")
    )
      return undefined;
    throw thrown;
  }
}

function missingSdk(io: ServeIO, runtime: Runtime): number {
  runtime.close();
  io.stderr(
    "cave serve: needs the MCP TypeScript SDK, an optional peer dependency of cave: npm install @modelcontextprotocol/sdk@^1.32.2\n",
  );
  return 1;
}

function positive(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  return /^[1-9][0-9]{0,14}$/.test(value) ? Number(value) : undefined;
}

function hostPort(value: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(value);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

function usage(io: ServeIO, message: string): number {
  io.stderr(`cave serve: ${message}\nusage: ${SERVE_USAGE}\n`);
  return 1;
}
