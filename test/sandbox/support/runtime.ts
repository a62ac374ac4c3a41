import { readFileSync } from "node:fs";
import type { CallOutcome } from "../../../src/contract/outcome.js";
import { createRuntime, MemoryReceiptSink, type Runtime } from "../../../runtime/index.js";
import {
  createSandboxDispatcher,
  type SandboxDispatcher,
  type SandboxOptions,
} from "../../../runtime/sandbox/index.js";

const open: SandboxDispatcher[] = [];

export interface Sandboxed {
  readonly runtime: Runtime;
  readonly sandbox: SandboxDispatcher;
  readonly receipts: MemoryReceiptSink;
}

/**
 * A runtime over a built project whose sandbox dispatcher the test can see (spawn counter, pids). The
 * breaker is opened only after many failures, since these tests fail tools on purpose.
 */
export async function sandboxed(
  root: string,
  options: { sandbox?: SandboxOptions; mode?: "host" | "fixture" } = {},
): Promise<Sandboxed> {
  const sandbox = createSandboxDispatcher(options.sandbox);
  open.push(sandbox);
  const receipts = new MemoryReceiptSink();
  const runtime = await createRuntime({
    root,
    mode: options.mode ?? "host",
    receipts,
    breaker: { failureThreshold: 1000 },
    dispatchers: { required: sandbox },
  });
  return { runtime, sandbox, receipts };
}

/** Kills every child the tests' dispatchers started. */
export function closeSandboxes(): void {
  for (const sandbox of open.splice(0)) sandbox.close();
}

/**
 * Resolves once `pid` is gone, or after `ms`. A zombie of this process counts as alive until it is reaped (the host
 * must reap its own children); a zombie of another parent is dead: a process of the sandbox's pid namespace is
 * reparented to the machine's init when bwrap dies, and when that init reaps is not the host's doing.
 */
export async function gone(pid: number, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    const stat = processStat(pid);
    if (stat !== undefined && stat.state === "Z" && stat.ppid !== process.pid) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** State and parent of a process from /proc (Linux), or undefined. */
function processStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "latin1");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields count from the last ")".
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** "ok" or the failed call's error code. */
export function code(outcome: CallOutcome): string {
  return outcome.ok ? "ok" : outcome.error.code;
}
