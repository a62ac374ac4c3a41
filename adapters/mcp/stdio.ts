import type { Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Run } from "../../runtime/index.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/**
 * Serves `run` over this process's stdin/stdout (one connection: one run). Stdout belongs to the
 * JSON-RPC stream alone: from here on, anything else written to process.stdout (console.log in an
 * in-process tool, a dependency's banner) goes to stderr, where MCP hosts show a server's logs; one
 * stray line on stdout would break the client's parser. Resolves when the client closes the connection.
 */
export async function serveStdio(run: Run, options?: McpServerOptions): Promise<void> {
  const protocol = protocolStream(process.stdout);
  const server = createMcpServer(run, options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // A client that goes away without closing (stdin ends) closes the connection too.
  process.stdin.once("end", () => void server.close());
  // The transport is typed for a Writable; it calls only what ProtocolOut has.
  await server.connect(new StdioServerTransport(process.stdin, protocol as unknown as Writable));
  await closed;
}

/** What StdioServerTransport uses of the stream it writes to (SDK 1.x, server/stdio.js `send`): write, and once("drain") after a false write. */
interface ProtocolOut {
  write(chunk: string): boolean;
  once(event: "drain", listener: () => void): ProtocolOut;
}

/**
 * Takes `stdout` for the protocol: returns what the transport writes JSON-RPC messages to, and from then
 * on sends every other write to `stdout` to stderr.
 *
 * The returned object calls the real stdout's own write directly, one call per message, and passes its
 * backpressure through (its `drain`). An earlier version was a Writable in front of stdout: every message
 * then went through two stream layers, was converted to a Buffer, and waited for a write callback (about
 * 20 µs of CPU per tools/call in a CPU profile at 1,000 tools, bench/adapters).
 */
function protocolStream(stdout: NodeJS.WriteStream): ProtocolOut {
  const write = stdout.write.bind(stdout) as (chunk: string) => boolean;
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, callback)) as typeof stdout.write;
  const out: ProtocolOut = {
    write: (chunk) => write(chunk),
    once: (event, listener) => {
      stdout.once(event, listener);
      return out;
    },
  };
  return out;
}
