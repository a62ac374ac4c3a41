// `cave serve` over stdio, spawned as a user's MCP host spawns it, driven by the official MCP client.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type ToolInfo } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { call, expectCalls, expectCancellation, expectHeartbeats, expectList, text } from "./mcp-scenario.js";
import { builtProject, CLI } from "./support.js";

let root: string;
let lockIntegrity: string;
let locked: ToolInfo[];
const open: Client[] = [];
beforeAll(async () => {
  root = await builtProject("test/adapters/projects/agent");
  const runtime = await createRuntime({ root, mode: "host" });
  lockIntegrity = runtime.lockIntegrity;
  locked = runtime.describeTools();
}, 120_000);
afterAll(async () => {
  for (const client of open.splice(0)) await client.close();
  removeCopies();
});

async function serve(...flags: string[]): Promise<{ client: Client; stderr: () => string; receipts: string }> {
  const receipts = join(mkdtempSync(join(tmpdir(), "cave-serve-")), "receipts.jsonl");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--root", root, "--receipts", receipts, ...flags],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "cave-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr, receipts };
}

describe("cave serve over stdio", () => {
  it("lists the locked tools and answers every kind of outcome, one run for the connection", async () => {
    const { client, stderr, receipts } = await serve();
    expect(client.getServerVersion()).toEqual({ name: "cave", version: `0.1.0+${lockIntegrity.slice(7, 19)}` });
    await expectList(client, lockIntegrity, locked);
    await expectCalls(client);
    await expectCancellation(client, receipts, "stdio");
    const lines = readFileSync(receipts, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { runId: string });
    expect(new Set(lines.map((r) => r.runId)).size).toBe(1);
    expect(stderr()).toContain("budget 10000 calls / 86400000 ms per run");
  }, 60_000);

  it("sends progress heartbeats for a tool locked past the client's 60 s", async () => {
    const { client } = await serve("--heartbeat-ms", "50");
    await expectHeartbeats(client);
  }, 30_000);

  it("keeps an in-process tool's stdout off the JSON-RPC stream (it goes to stderr)", async () => {
    const { client, stderr } = await serve();
    const result = await call(client, "noisy", {});
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({ said: "noise" });
    expect((await call(client, "lookup_policy", { region: "US" })).structuredContent).toEqual({
      region: "US",
      refundWindowDays: 30,
    });
    expect(stderr()).toContain("noise from a tool on stdout");
  }, 30_000);

  it("--fixture blocks effects; --max-calls bounds the run; --run-id names it", async () => {
    const { client, receipts } = await serve("--fixture", "--max-calls", "2", "--run-id", "desk-1");
    const blocked = await call(client, "issue_refund", { orderId: "o-2", cents: 1 });
    expect(text(blocked)).toMatch(/^EFFECT_BLOCKED: /);
    expect((await call(client, "lookup_policy", { region: "EU" })).isError).toBeFalsy();
    const over = await call(client, "lookup_policy", { region: "US" });
    expect(text(over)).toMatch(/^BUDGET_EXCEEDED: /);
    const runIds = readFileSync(receipts, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { runId: string }).runId);
    expect(new Set(runIds)).toEqual(new Set(["desk-1"]));
  }, 30_000);

  it("a sandboxed tool runs in its child process through the server", async () => {
    const { client } = await serve();
    expect(JSON.parse(text(await call(client, "whoami", {})))).toEqual({ sandboxed: true });
  }, 30_000);
});
