// `cave serve` driven by the official MCP client of the v2 split packages (@modelcontextprotocol/client 2.x, Node >=20),
// over stdio and over Streamable HTTP (sessionful and stateless), with the same scenario as the 1.x client. The
// client's version negotiation is "auto": it probes for the modern era first (server/discover), and cave's server,
// built on the 1.x SDK's low-level Server, answers the 2025 handshake it falls back to.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type ToolInfo } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { expectCalls, expectCancellation, expectHeartbeats, expectList, receiptOf, text } from "./mcp-scenario.js";
import { builtProject, CLI } from "./support.js";

let root: string;
let lockIntegrity: string;
let locked: ToolInfo[];
const clients: Client2[] = [];
const servers: ChildProcess[] = [];
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
  const runtime = await createRuntime({ root, mode: "host" });
  lockIntegrity = runtime.lockIntegrity;
  locked = runtime.describeTools();
  runtime.close();
}, 120_000);
afterAll(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const server of servers.splice(0)) server.kill("SIGTERM");
  removeCopies();
});

/**
 * The v2 client as the scenario's v1-shaped client: the one difference is callTool's arguments (v1 takes
 * `(params, resultSchema?, options?)`, v2 `(params, options?)`; options in v1's position would be silently ignored).
 */
function asScenarioClient(client: Client2): Client {
  return {
    listTools: () => client.listTools(),
    getServerCapabilities: () => client.getServerCapabilities(),
    callTool: (
      params: Parameters<Client2["callTool"]>[0],
      _schema: unknown,
      options?: Parameters<Client2["callTool"]>[1],
    ) => client.callTool(params, options),
  } as unknown as Client;
}

const newClient = () =>
  new Client2({ name: "cave-test-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
const receiptsFile = () => join(mkdtempSync(join(tmpdir(), "cave-serve-")), "receipts.jsonl");

/** Starts `cave serve --http 127.0.0.1:0` and reads the URL it prints. */
async function serveHttp(receipts: string, flags: string[] = []): Promise<URL> {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--root", root, "--http", "127.0.0.1:0", "--receipts", receipts, ...flags],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  servers.push(child);
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => void (err += chunk.toString("utf8")));
  return new URL(
    await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      child.once("exit", (code) => reject(new Error(`cave serve exited ${code}: ${err}`)));
    }),
  );
}

describe("cave serve with the MCP v2 client (@modelcontextprotocol/client)", () => {
  it("over stdio: initialize, list (schemas, annotations, _meta), every outcome, cancellation, heartbeats; one run", async () => {
    const receipts = receiptsFile();
    const client = newClient();
    await client.connect(
      new Stdio2({
        command: process.execPath,
        args: [CLI, "serve", "--root", root, "--receipts", receipts, "--heartbeat-ms", "50"],
        stderr: "pipe",
      }),
    );
    clients.push(client);
    expect(client.getServerVersion()).toMatchObject({ name: "cave", version: `0.1.0+${lockIntegrity.slice(7, 19)}` });
    const scenario = asScenarioClient(client);
    await expectList(scenario, lockIntegrity, locked);
    await expectCalls(scenario);
    await expectCancellation(scenario, receipts, "stdio-v2");
    await expectHeartbeats(scenario);
    const lines = readFileSync(receipts, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { runId: string });
    expect(new Set(lines.map((r) => r.runId)).size).toBe(1);
  }, 90_000);

  it("over Streamable HTTP (sessionful): the same scenario, one run per session", async () => {
    const receipts = receiptsFile();
    const url = await serveHttp(receipts, ["--heartbeat-ms", "50"]);
    const client = newClient();
    await client.connect(new Http2(url));
    clients.push(client);
    const scenario = asScenarioClient(client);
    await expectList(scenario, lockIntegrity, locked);
    await expectCalls(scenario);
    await expectCancellation(scenario, receipts, "http-v2");
    await expectHeartbeats(scenario);
  }, 90_000);

  it('over stateless Streamable HTTP: a run per _meta["cave/run"] key', async () => {
    const url = await serveHttp(receiptsFile(), ["--stateless"]);
    const client = newClient();
    await client.connect(new Http2(url));
    clients.push(client);
    const refund = (key: string) =>
      client.callTool({
        name: "issue_refund",
        arguments: { orderId: "o-9", cents: 900 },
        _meta: { "cave/run": key },
      }) as Promise<Parameters<typeof text>[0]>;
    const first = await refund("v2-conversation");
    expect(first.isError).toBeFalsy();
    expect(receiptOf(first).runId).toBe("v2-conversation");
    const again = await refund("v2-conversation");
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/^REPEAT_STOPPED: /);
    expect((await refund("v2-other")).isError).toBeFalsy();
  }, 60_000);
});
