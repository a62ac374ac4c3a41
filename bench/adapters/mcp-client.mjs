// Drives one MCP server over stdio with the official client and prints its figures as JSON:
//   node mcp-client.mjs <command> <args as JSON> <tool> <calls>
// startMs: spawn → initialize → tools/list → first tools/call answered (what a host waits for);
// perCallUs: median over rounds of the mean stdio round trip of `calls` sequential tools/call.
// serverStartCpuMs / serverPerCallCpuUs: the server process's own CPU time (user + system, from /proc; null
// where there is none) for its start-up and per call. Wall times on a loaded machine mostly measure the
// scheduler (the client and the server share its cores); a server's CPU time is its own work.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, argsJson, tool, callsText] = process.argv.slice(2);
const calls = Number(callsText);
const args = (i) => ({ customerId: "cus_abcdefgh", query0: `q${i}` });
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();
/** utime + stime of a process in ms, or null (no /proc). */
const cpuMs = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
};

const t0 = performance.now();
const client = new Client({ name: "bench", version: "1" });
const transport = new StdioClientTransport({ command, args: JSON.parse(argsJson), stderr: "ignore" });
await client.connect(transport);
const { tools } = await client.listTools();
const first = await client.callTool({ name: tool, arguments: args(0) });
const startMs = performance.now() - t0;
if (first.isError) throw new Error(`first call failed: ${JSON.stringify(first.content)}`);
const serverStartCpuMs = cpuMs(transport.pid);

const rounds = [];
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = await client.callTool({ name: tool, arguments: args(1 + r * calls + i) });
    if (result.isError) throw new Error(`call failed: ${JSON.stringify(result.content)}`);
  }
  rounds.push(((performance.now() - t) * 1000) / calls);
}
const serverEndCpuMs = cpuMs(transport.pid);
await client.close();
rounds.sort((a, b) => a - b);
const serverPerCallCpuUs =
  serverStartCpuMs === null || serverEndCpuMs === null || calls === 0
    ? null
    : ((serverEndCpuMs - serverStartCpuMs) * 1000) / (5 * calls);
console.log(
  JSON.stringify({ tools: tools.length, startMs, perCallUs: rounds[2], serverStartCpuMs, serverPerCallCpuUs }),
);
