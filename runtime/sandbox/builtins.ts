import { createRequire } from "node:module";
import type * as ChildProcesses from "node:child_process";
import type * as Http from "node:http";
import type * as Https from "node:https";

const load = createRequire(import.meta.url);
let childProcessModule: typeof ChildProcesses | undefined;
let httpModule: typeof Http | undefined;
let httpsModule: typeof Https | undefined;

/*
 * Node built-ins the sandbox host needs only once a sandboxed call is made, loaded then by require: a runtime whose
 * calls never reach the sandbox (sandbox: "none" tools, fixture mode, another dispatcher) never pays for them. An ES
 * import would cost every start-up: node:child_process ~5 ms, and on Node 22 and later node:http's ES facade reads
 * its lazy WebSocket exports, which loads undici (0.1-0.4 s).
 */

/** node:child_process, on first use. */
export function childProcesses(): typeof ChildProcesses {
  childProcessModule ??= load("node:child_process") as typeof ChildProcesses;
  return childProcessModule;
}

/** node:http, on first use (the egress broker's server and its upstream requests). */
export function http(): typeof Http {
  httpModule ??= load("node:http") as typeof Http;
  return httpModule;
}

/** node:https, on first use (the egress broker's upstream requests). */
export function https(): typeof Https {
  httpsModule ??= load("node:https") as typeof Https;
  return httpsModule;
}
