import { createRequire } from "node:module";
import type * as ChildProcesses from "node:child_process";
import type * as Http from "node:http";
import type * as Https from "node:https";
import type * as Net from "node:net";
import type * as Tls from "node:tls";
import type * as DnsPromises from "node:dns/promises";

const load = createRequire(import.meta.url);

/*
 * Node built-ins the sandbox host needs only once a sandboxed call is made, loaded then by require: a runtime whose
 * calls never reach the sandbox (sandbox: "none" tools, fixture mode, another dispatcher) never pays for them. An ES
 * import would cost every start-up: node:child_process ~5 ms, node:tls ~13 ms, node:dns/promises and node:net ~4 ms
 * each (Node 20, a quiet machine), and on Node 22 and later node:http's ES facade reads its lazy WebSocket exports,
 * which loads undici (0.1-0.4 s).
 */
function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}

/** node:child_process, on first use. */
export const childProcesses = onFirstUse<typeof ChildProcesses>("node:child_process");
/** node:http, on first use (the egress broker's server and its upstream requests). */
export const http = onFirstUse<typeof Http>("node:http");
/** node:https, on first use (the egress broker's upstream requests). */
export const https = onFirstUse<typeof Https>("node:https");
/** node:net, on first use (IP literals in egress options and the broker's checks, its channel's sockets). */
export const net = onFirstUse<typeof Net>("node:net");
/** node:tls, on first use (the broker's upstream requests with extra CAs). */
export const tls = onFirstUse<typeof Tls>("node:tls");
/** node:dns/promises, on first use (the broker resolves a host's name). */
export const dns = onFirstUse<typeof DnsPromises>("node:dns/promises");
