// The baseline of the MCP start-up benchmark: an MCP server as the SDK's docs build one, McpServer with a
// zod schema per tool, made at start-up from the same locked JSON Schemas (z.fromJSONSchema), every tool
// answering a fixed result after the SDK's zod validation. Serves stdio.
//   node zod-server.mjs <root> [--output-schemas]
// --output-schemas: also an outputSchema (zod) for the tools cave advertises one for (an inline result plan
// and an object output schema), answered with structuredContent, as a server exposing the same tools would.
// Without it the baseline declares input schemas only, and its client compiles no output validators.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const [root, flag] = process.argv.slice(2);
const outputs = flag === "--output-schemas";
const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
const server = new McpServer({ name: "zod-baseline", version: "1.0.0" });
for (const [name, tool] of Object.entries(lock.tools)) {
  const inputSchema = z.fromJSONSchema(tool.input.jsonSchema);
  const output = tool.output?.jsonSchema;
  const outputSchema =
    outputs && tool.result.plan.strategy === "inline" && output?.type === "object"
      ? z.fromJSONSchema(output)
      : undefined;
  server.registerTool(
    name,
    { description: tool.description, inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) },
    async (input) => {
      const result = { ok: true, id: name };
      return {
        content: [{ type: "text", text: JSON.stringify(result) }],
        ...(outputSchema === undefined ? {} : { structuredContent: { ok: true, id: input.query0 ?? name } }),
      };
    },
  );
}
await server.connect(new StdioServerTransport());
