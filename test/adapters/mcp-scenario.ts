// What every MCP transport must do, driven by the official client (@modelcontextprotocol/sdk 1.x).
import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import type { Receipt, ToolInfo } from "../../runtime/index.js";
import { argumentOf } from "./support.js";

type ToolResult = {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

export const text = (result: ToolResult): string => result.content.map((c) => c.text ?? "").join("");
export const receiptOf = (result: ToolResult): Receipt => result._meta!["cave/receipt"] as Receipt;

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options?: Parameters<Client["callTool"]>[2],
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as ToolResult;
}

/** tools/list: locked schemas with $schema, outputSchema only for inline object results, hints, pins. */
export async function expectList(client: Client, lockIntegrity: string, locked: readonly ToolInfo[]): Promise<void> {
  expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    "hang",
    "issue_refund",
    "list_orders",
    "lookup_policy",
    "noisy",
    "read_log",
    "slow_write",
    "whoami",
    "cave_page",
    "cave_recover",
  ]);
  const lookup = tools.find((t) => t.name === "lookup_policy")!;
  // Every tool's inputSchema is its locked draft-07 schema with the dialect stated.
  for (const tool of tools)
    expect(tool.inputSchema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      ...locked.find((t) => t.name === tool.name)!.inputSchema,
    });
  expect(lookup.inputSchema).toMatchObject({
    type: "object",
    properties: { region: { type: "string", minLength: 2, maxLength: 2 } },
    required: ["region"],
  });
  expect(lookup.outputSchema).toMatchObject({
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    required: ["region", "refundWindowDays"],
  });
  expect(lookup.annotations).toEqual({
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  expect(lookup._meta).toMatchObject({
    "cave/effect": "read",
    "cave/result": "inline",
    "cave/lockIntegrity": lockIntegrity,
  });
  expect(lookup._meta!["cave/sha256"]).toBe(locked.find((t) => t.name === "lookup_policy")!.sha256);
  const refund = tools.find((t) => t.name === "issue_refund")!;
  expect(refund.annotations).toEqual({
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  });
  // Paged and stored results put a page or a view in content, not the result: no outputSchema.
  expect(tools.find((t) => t.name === "list_orders")!.outputSchema).toBeUndefined();
  expect(tools.find((t) => t.name === "read_log")!.outputSchema).toBeUndefined();
  expect(tools.find((t) => t.name === "cave_page")!._meta!["cave/sha256"]).toBeNull();
}

/** Calls: ok, invalid input, repeat stopped, timeout, unknown tool, paged, recovered. */
export async function expectCalls(client: Client): Promise<void> {
  const ok = await call(client, "lookup_policy", { region: "EU" });
  expect(ok.isError).toBeFalsy();
  expect(ok.structuredContent).toEqual({ region: "EU", refundWindowDays: 14 });
  expect(JSON.parse(text(ok))).toEqual({ region: "EU", refundWindowDays: 14 });
  expect(receiptOf(ok)).toMatchObject({
    tool: "lookup_policy",
    outcome: "ok",
    correlationId: expect.stringMatching(/^\d+$/),
  });

  const invalid = await call(client, "lookup_policy", { region: 42 });
  expect(invalid.isError).toBe(true);
  expect(text(invalid)).toMatch(/^INPUT_INVALID: /);
  expect(invalid._meta!["cave/code"]).toBe("INPUT_INVALID");

  const first = await call(client, "issue_refund", { orderId: "o-1", cents: 500 });
  expect(first.isError).toBeFalsy();
  const again = await call(client, "issue_refund", { cents: 500, orderId: "o-1" });
  expect(again.isError).toBe(true);
  expect(text(again)).toMatch(/^REPEAT_STOPPED: /);
  expect(text(again)).toContain(receiptOf(first).callId);

  const slow = await call(client, "hang", {});
  expect(slow.isError).toBe(true);
  expect(text(slow)).toMatch(/^TIMEOUT: tool "hang" did not finish within its timeout of 300 ms/);

  await expect(call(client, "refund_everything", {})).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("UNKNOWN_TOOL: "),
  });

  const paged = await call(client, "list_orders", { count: 400 });
  const firstPage = text(paged);
  const pages = Number(/page 1 of (\d+)/.exec(firstPage)![1]);
  expect(pages).toBeGreaterThan(1);
  const second = await call(client, "cave_page", argumentOf(firstPage, "cave_page"));
  expect(second.isError).toBeFalsy();
  expect(text(second)).toMatch(/page 2 of /);

  const log = await call(client, "read_log", { lines: 3000 });
  const { ref } = argumentOf(text(log), "cave_recover");
  const recovered = await call(client, "cave_recover", { ref });
  expect(recovered.isError).toBeFalsy();
  expect(text(recovered)).toContain("INFO served request 0");
}

/** A client cancellation reaches run.call: CANCELLED, effectUnknown for the dispatched write, in the receipts file. */
export async function expectCancellation(client: Client, receiptsFile: string, id: string): Promise<void> {
  // Loads its code and validator first, so the cancellation below lands after dispatch.
  expect((await call(client, "slow_write", { id: `${id}-warm`, ms: 0 })).isError).toBeFalsy();
  const controller = new AbortController();
  const pending = call(client, "slow_write", { id, ms: 60_000 }, { signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 300));
  controller.abort("stop");
  await expect(pending).rejects.toThrow();
  const until = Date.now() + 10_000;
  let found: Receipt | undefined;
  while (found === undefined && Date.now() < until) {
    const lines = readFileSync(receiptsFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Receipt);
    found = lines.find((r) => r.tool === "slow_write" && r.outcome === "CANCELLED");
    if (found === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(found).toMatchObject({
    outcome: "CANCELLED",
    effectUnknown: true,
    correlationId: expect.stringMatching(/^\d+$/),
  });
}

/** A long tool (timeout over 60 s) sends heartbeats when the client asks for progress. */
export async function expectHeartbeats(client: Client): Promise<void> {
  const progress: number[] = [];
  const result = await call(
    client,
    "slow_write",
    { id: "beat", ms: 1_500 },
    { onprogress: (p) => void progress.push(p.progress), resetTimeoutOnProgress: true },
  );
  expect(result.isError).toBeFalsy();
  expect(progress.length).toBeGreaterThan(0);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
}
