/** cave/mcp: locked tools as an MCP server (the official SDK's low-level Server), over stdio or Streamable HTTP. */
export { createMcpServer, type McpServerOptions } from "./server.js";
export { serveStdio } from "./stdio.js";
export { serveHttp, type McpHttpOptions, type McpHttpServer } from "./http.js";
export { mcpTools, structuredOutput, DRAFT_07, META, type McpTool } from "./tools-list.js";
export { CLIENT_TIMEOUT_MS, HEARTBEAT_MS } from "./heartbeat.js";
export { CaveCallError, failureText } from "../shared/outcome.js";
