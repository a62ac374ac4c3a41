import type { RuntimeCode } from "../../src/contract/codes/runtime.js";
import type { LockedTool } from "../../src/contract/lock.js";
import type { DispatchFailure } from "../dispatch/types.js";
import { describeIssues } from "../pipeline/issues.js";
import { outputProblem } from "../pipeline/output-problem.js";
import { isTransient } from "../run/retry.js";
import type { ChildMessage, DataProblem, ErrorLink } from "./protocol.js";
import type { Death } from "./sandbox-child.js";

type Fail = Extract<ChildMessage, { t: "fail" }>;

/** The limits messages mention. */
export interface Limits {
  readonly heapMb: number;
  readonly maxRssMb: number;
  readonly maxOutputBytes: number;
}

/** A failure reported by the child itself (the tool threw, was denied, or returned something that cannot cross). */
export function childFailure(name: string, tool: LockedTool, fail: Fail, limits: Limits): DispatchFailure {
  const q = JSON.stringify(name);
  switch (fail.code) {
    case "TOOL_ERROR":
      return failure("TOOL_ERROR", `tool ${q} failed: ${fail.message}`, {
        transient: isTransient(chainError(fail.chain)),
      });
    case "SANDBOX_DENIED":
      // A native addon is a power the profile can grant: say which.
      if (fail.message.includes("process.dlopen is denied")) {
        return failure(
          "SANDBOX_DENIED",
          `tool ${q} was stopped by the sandbox: ${fail.message}. It loads a native addon; give it sandboxProfile: { addons: true } (it then runs only under the sandbox's OS layer), or sandbox: "none" if it is trusted code`,
        );
      }
      return failure(
        "SANDBOX_DENIED",
        `tool ${q} was stopped by the sandbox: ${fail.message}. A sandboxed tool reads only its own bundle, writes no file, starts no process and signals no other process; pass it what it needs as arguments`,
      );
    case "NETWORK_REFUSED":
      return failure(
        "NETWORK_REFUSED",
        `tool ${q} tried to reach the network where its sandbox does not let it: ${fail.message}. A sandboxed tool reaches only the hosts in its sandboxProfile.egress, through fetch, undici's global dispatcher or the http/https modules; add the host there and rebuild`,
      );
    case "OUTPUT_TOO_LARGE":
    case "OUTPUT_TOO_DEEP":
    case "OUTPUT_NOT_SERIALISABLE":
      return dataFailure(q, "returned", fail.problem, limits.maxOutputBytes, tool.output !== null);
    case "INPUT_INVALID":
      return failure("INPUT_INVALID", `${fail.message}: ${describeIssues(fail.issues)}`);
    case "LOCK_MISMATCH":
      return failure("LOCK_MISMATCH", fail.message);
  }
}

/** A value the child refused to send, in the words the pipeline uses for the same problem in-process; `typed`: the tool has an output schema. */
export function dataFailure(
  q: string,
  verb: string,
  problem: DataProblem | null,
  maxOutputBytes: number,
  typed: boolean,
): DispatchFailure {
  const refused = outputProblem(`tool ${q}`, verb, problem, maxOutputBytes, typed);
  return failure(refused.code, refused.message);
}

/** The child is gone mid-request: why, and whether the tool's effect may have happened. */
export function deathFailure(name: string, tool: LockedTool, death: Death, limits: Limits): DispatchFailure {
  const q = JSON.stringify(name);
  const mayHaveActed = tool.effect !== "read";
  const unknown = mayHaveActed ? `; it has effect ${tool.effect} and may have done part of it (effectUnknown)` : "";
  switch (death.by) {
    case "deadline":
      return failure(
        "TIMEOUT",
        `tool ${q} did not finish within its timeout of ${tool.timeoutMs} ms; its sandbox process was killed${unknown}`,
        { effectUnknown: mayHaveActed },
      );
    case "rss":
      return failure(
        "RESOURCE_EXHAUSTED",
        `tool ${q} used ${Math.round(death.rssBytes / 1_048_576)} MiB of memory, over the sandbox's maxRssMb of ${limits.maxRssMb} (off-heap Buffers count too); its process was killed${unknown}. Use less memory, or raise maxRssMb`,
        { effectUnknown: mayHaveActed },
      );
    case "protocol":
      return failure(
        "PROTOCOL_ERROR",
        `tool ${q}'s sandbox process ${death.why} on its channel to the host; it was killed and nothing it sent was used${unknown}. Tools must not write to fd 3`,
        { effectUnknown: mayHaveActed },
      );
    case "exit":
      if (death.heapExhausted) {
        return failure(
          "RESOURCE_EXHAUSTED",
          `tool ${q} ran out of JavaScript heap (the sandbox's heapMb is ${limits.heapMb}); its process ended${unknown}. Use less memory, or raise heapMb`,
          { effectUnknown: mayHaveActed },
        );
      }
      return failure(
        "TOOL_CRASHED",
        `tool ${q}'s sandbox process ended before it returned a result (${death.signal !== null ? `killed by ${death.signal}` : `exit code ${death.code}`})${unknown}`,
        { effectUnknown: mayHaveActed },
      );
    case "retired":
      return failure(
        "TOOL_CRASHED",
        `tool ${q}'s sandbox process was stopped while the call ran (the sandbox dispatcher was closed)${unknown}`,
        { effectUnknown: mayHaveActed },
      );
    case "start-timeout":
      return failure(
        "TIMEOUT",
        `tool ${q}'s sandbox process did not finish loading the tool's module within ${death.ms} ms (its top-level code runs at start-up); it was killed. Make the module's top-level code finish sooner, or raise startTimeoutMs`,
      );
    case "spawn":
      return failure(
        "SANDBOX_UNAVAILABLE",
        `tool ${q} could not be started in a sandbox process (${death.message}); it was not run`,
      );
    case "refused":
      return failure("FS_SCOPE_UNAVAILABLE", death.message);
  }
}

export function failure(
  code: RuntimeCode,
  message: string,
  extra: { transient?: boolean; effectUnknown?: boolean } = {},
): DispatchFailure {
  return { ok: false, code, message, transient: extra.transient ?? false, effectUnknown: extra.effectUnknown ?? false };
}

/** An error-shaped object for isTransient from the child's code/transient chain. */
function chainError(chain: readonly ErrorLink[]): unknown {
  let error: unknown;
  for (const link of [...chain].reverse())
    error = { code: link.code ?? undefined, transient: link.transient, cause: error };
  return error;
}
