// Drives one MCP server over stdio with the official client and prints its figures as JSON:
//   node mcp-client.mjs <command> <args as JSON> <tool> <calls>
// startMs: spawn → initialize → tools/list → first tools/call answered (what a host waits for);
// perCallUs: median over rounds of the mean stdio round trip of `calls` sequential tools/call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, argsJson, tool, callsText] = process.argv.slice(2);
const calls = Number(callsText);
const args = (i) => ({ customerId: "cus_abcdefgh", query0: `q${i}` });

const t0 = performance.now();
const client = new Client({ name: "bench", version: "1" });
await client.connect(new StdioClientTransport({ command, args: JSON.parse(argsJson), stderr: "ignore" }));
const { tools } = await client.listTools();
const first = await client.callTool({ name: tool, arguments: args(0) });
const startMs = performance.now() - t0;
if (first.isError) throw new Error(`first call failed: ${JSON.stringify(first.content)}`);

const rounds = [];
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: tool, arguments: args(1 + r * calls + i) });
    if (result.isError) throw new Error(`call failed: ${JSON.stringify(result.content)}`);
  }
  rounds.push(((performance.now() - t) * 1000) / calls);
}
await client.close();
rounds.sort((a, b) => a - b);
console.log(JSON.stringify({ tools: tools.length, startMs, perCallUs: rounds[2] }));
