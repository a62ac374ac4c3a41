// `cave serve --http` on 127.0.0.1, driven by the official MCP client over Streamable HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type ToolInfo } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import {
  call,
  expectCalls,
  expectCancellation,
  expectHeartbeats,
  expectList,
  receiptOf,
  text,
} from "./mcp-scenario.js";
import { argumentOf, builtProject, CLI } from "./support.js";

let root: string;
let lockIntegrity: string;
let locked: ToolInfo[];
const servers: ChildProcess[] = [];
const clients: Client[] = [];
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
  const runtime = await createRuntime({ root, mode: "host" });
  lockIntegrity = runtime.lockIntegrity;
  locked = runtime.describeTools();
}, 120_000);
afterAll(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const server of servers.splice(0)) server.kill("SIGTERM");
  removeCopies();
});

/** Starts `cave serve --http 127.0.0.1:0` and reads the URL it prints. */
async function serve(flags: string[] = [], env: Record<string, string> = {}): Promise<{ url: URL; receipts: string }> {
  const receipts = join(mkdtempSync(join(tmpdir(), "cave-serve-")), "receipts.jsonl");
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--root", root, "--http", "127.0.0.1:0", "--receipts", receipts, ...flags],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  servers.push(child);
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => void (err += chunk.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`cave serve exited ${code}: ${err}`)));
  });
  return { url: new URL(url), receipts };
}

async function connect(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "cave-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** A raw POST with chosen Host/Origin/Authorization headers (fetch cannot set Host). */
function rawPost(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => void (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("cave serve --http (Streamable HTTP on 127.0.0.1)", () => {
  it("lists and calls like stdio, one run per MCP session", async () => {
    const { url, receipts } = await serve(["--heartbeat-ms", "50"]);
    const client = await connect(url);
    await expectList(client, lockIntegrity, locked);
    await expectCalls(client);
    await expectCancellation(client, receipts, "http");
    await expectHeartbeats(client);
    // A second session is a second run: the refund the first one made is not a repeat there.
    const other = await connect(url);
    const refund = await call(other, "issue_refund", { orderId: "o-1", cents: 500 });
    expect(refund.isError).toBeFalsy();
    const firstRun = await call(client, "lookup_policy", { region: "FR" });
    expect(receiptOf(refund).runId).not.toBe(receiptOf(firstRun).runId);
    expect(receiptOf(refund).runId).toMatch(/^[0-9a-f-]{36}$/);
  }, 90_000);

  it("refuses a Host or Origin it does not serve (DNS rebinding), before the MCP layer", async () => {
    const { url } = await serve();
    const evilHost = await rawPost(url, { host: `attacker.example:${url.port}` });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body).error.message).toBe(
      `Host "attacker.example:${url.port}" is not allowed (DNS rebinding protection); allowed: 127.0.0.1:${url.port}, localhost:${url.port}`,
    );
    const evilOrigin = await rawPost(url, { origin: "http://attacker.example" });
    expect(evilOrigin.status).toBe(403);
    expect(JSON.parse(evilOrigin.body).error.message).toBe(
      `Origin "http://attacker.example" is not allowed; allowed: http://127.0.0.1:${url.port}, http://localhost:${url.port}`,
    );
    const local = await rawPost(url, { origin: `http://localhost:${url.port}` });
    expect(local.status).toBe(200);
  }, 30_000);

  it("with --token-env, requires the bearer token", async () => {
    const { url } = await serve(["--token-env", "CAVE_TEST_TOKEN"], { CAVE_TEST_TOKEN: "s3cret-token" });
    expect((await rawPost(url, {})).status).toBe(401);
    expect((await rawPost(url, { authorization: "Bearer wrong-token!" })).status).toBe(401);
    const client = await connect(url, { authorization: "Bearer s3cret-token" });
    expect(text(await call(client, "lookup_policy", { region: "EU" }))).toContain("refundWindowDays");
  }, 30_000);
});

/** A tools/call through the official client, naming its run in `_meta["cave/run"]` (or no run key). */
async function keyed(client: Client, key: string | undefined, name: string, args: Record<string, unknown>) {
  return (await client.callTool({
    name,
    arguments: args,
    ...(key === undefined ? {} : { _meta: { "cave/run": key } }),
  })) as Parameters<typeof text>[0];
}

describe('cave serve --http --stateless (no MCP session; a run per _meta["cave/run"] key)', () => {
  it("lists and calls; calls with the same run key share one run (repeat guard, pages, runId), a call without a key is a run of its own", async () => {
    const { url } = await serve(["--stateless"]);
    const client = await connect(url);
    // Nothing to hang a run on: the server gives no session id.
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    await expectList(client, lockIntegrity, locked);

    const first = await keyed(client, "conversation-a", "issue_refund", { orderId: "o-7", cents: 700 });
    expect(first.isError).toBeFalsy();
    expect(receiptOf(first)).toMatchObject({ tool: "issue_refund", outcome: "ok", runId: "conversation-a" });
    const again = await keyed(client, "conversation-a", "issue_refund", { cents: 700, orderId: "o-7" });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/^REPEAT_STOPPED: /);
    expect(text(again)).toContain(receiptOf(first).callId);
    expect(receiptOf(again).runId).toBe("conversation-a");
    // Another key is another run: the same refund is not a repeat there.
    const other = await keyed(client, "conversation-b", "issue_refund", { orderId: "o-7", cents: 700 });
    expect(other.isError).toBeFalsy();
    expect(receiptOf(other).runId).toBe("conversation-b");
    // No key: each call is a run of its own (a random id), so nothing is shared between them.
    const loose = [
      await keyed(client, undefined, "issue_refund", { orderId: "o-7", cents: 700 }),
      await keyed(client, undefined, "issue_refund", { orderId: "o-7", cents: 700 }),
    ];
    for (const result of loose) expect(result.isError).toBeFalsy();
    expect(receiptOf(loose[0]!).runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(receiptOf(loose[1]!).runId).not.toBe(receiptOf(loose[0]!).runId);

    // A paged result is followed through cave_page in the same keyed run, over separate requests.
    const paged = await keyed(client, "conversation-a", "list_orders", { count: 400 });
    const next = await keyed(client, "conversation-a", "cave_page", argumentOf(text(paged), "cave_page"));
    expect(next.isError).toBeFalsy();
    expect(text(next)).toMatch(/page 2 of /);
    expect(receiptOf(next).runId).toBe("conversation-a");
  }, 90_000);

  it('a run key that is not a run id is refused as invalid params, naming _meta["cave/run"]', async () => {
    const { url } = await serve(["--stateless"]);
    const client = await connect(url);
    await expect(keyed(client, "not a key!", "lookup_policy", { region: "EU" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        '_meta["cave/run"] names the call\'s run: it must be 1 to 128 letters, digits and _ . : @ -, starting with a letter or digit (got "not a key!")',
      ),
    });
    await expect(keyed(client, 42 as unknown as string, "lookup_policy", { region: "EU" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('_meta["cave/run"] names the call\'s run'),
    });
  }, 30_000);

  it("answers GET with 405 (no session stream); a call whose HTTP request is closed is CANCELLED", async () => {
    const { url, receipts } = await serve(["--stateless"]);
    const get = await new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "GET",
          headers: { accept: "text/event-stream" },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, allow: res.headers.allow });
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(get).toEqual({ status: 405, allow: "POST" });

    const client = await connect(url);
    expect((await keyed(client, "conversation-c", "slow_write", { id: "stateless-warm", ms: 0 })).isError).toBeFalsy();
    // A raw tools/call, its connection closed while the write runs: the transport closes and the call's signal aborts.
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: {
        name: "slow_write",
        arguments: { id: "stateless-cancel", ms: 60_000 },
        _meta: { "cave/run": "conversation-c" },
      },
    });
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    req.on("error", () => {});
    req.end(body);
    await new Promise((resolve) => setTimeout(resolve, 500));
    req.destroy();
    const until = Date.now() + 10_000;
    let found: Record<string, unknown> | undefined;
    while (found === undefined && Date.now() < until) {
      const lines = readFileSync(receipts, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      found = lines.find((r) => r.tool === "slow_write" && r.outcome === "CANCELLED");
      if (found === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found).toMatchObject({
      outcome: "CANCELLED",
      effectUnknown: true,
      runId: "conversation-c",
      correlationId: "9",
    });
  }, 60_000);
});
