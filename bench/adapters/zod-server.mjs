// The baseline of the MCP start-up benchmark: an MCP server as the SDK's docs build one, McpServer with a
// zod schema per tool, made at start-up from the same locked JSON Schemas (z.fromJSONSchema), every tool
// answering a fixed result after the SDK's zod validation. Serves stdio.   node zod-server.mjs <root>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const root = process.argv[2];
const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
const server = new McpServer({ name: "zod-baseline", version: "1.0.0" });
for (const [name, tool] of Object.entries(lock.tools)) {
  const inputSchema = z.fromJSONSchema(tool.input.jsonSchema);
  server.registerTool(name, { description: tool.description, inputSchema }, async () => ({ content: [{ type: "text", text: JSON.stringify({ ok: true, id: name }) }] }));
}
await server.connect(new StdioServerTransport());
