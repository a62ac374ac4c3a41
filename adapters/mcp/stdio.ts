import { Writable } from "node:stream";
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
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout) as (chunk: unknown, callback: (error?: Error | null) => void) => boolean;
  const protocol = new Writable({
    write(chunk, _encoding, callback) {
      protocolWrite(chunk, (error) => callback(error ?? null));
    },
  });
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => (process.stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, callback)) as typeof stdout.write;

  const server = createMcpServer(run, options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // A client that goes away without closing (stdin ends) closes the connection too.
  process.stdin.once("end", () => void server.close());
  await server.connect(new StdioServerTransport(process.stdin, protocol));
  await closed;
}
