import { createRequire } from "node:module";
import type * as ChildProcesses from "node:child_process";

let loaded: typeof ChildProcesses | undefined;

/**
 * node:child_process, loaded on first use: importing it costs ~5 ms of every start-up, and a runtime
 * whose calls never reach the sandbox (sandbox: "none" tools, fixture mode, another dispatcher) never
 * needs it.
 */
export function childProcesses(): typeof ChildProcesses {
  loaded ??= createRequire(import.meta.url)("node:child_process") as typeof ChildProcesses;
  return loaded;
}
