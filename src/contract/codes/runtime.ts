import { SANDBOX_CODES } from "./sandbox.js";
import type { CodeEntry } from "./types.js";
import { RESULTS_RUNTIME_CODES } from "./results.js";
import { JOURNAL_RUNTIME_CODES } from "./journal.js";

/**
 * The runtime's outcome codes: the closed set a call's `error.code` (and a receipt's `outcome`) can
 * hold, plus the codes of the RuntimeError that createRuntime()/startRun() throw. Keyed by name, not
 * number, because they travel in outcomes that models and hosts read. docs/runtime.md explains each.
 */
export const RUNTIME_CODES = {
  UNKNOWN_TOOL: {
    title: "Unknown tool",
    doc: "The call names a tool that is not in the lock. Call one of the locked tools (runtime.toolDeclarations() lists them), or add the tool and run cave build.",
  },
  INPUT_INVALID: {
    title: "Invalid input",
    doc: "The arguments are not plain JSON data, carry a __proto__ or constructor.prototype key, or do not match the tool's input schema. The message names the path; fix the arguments. No tool code ran.",
  },
  INPUT_TOO_LARGE: {
    title: "Input too large",
    doc: "The canonical JSON of the arguments is larger than limits.maxInputBytes (default 1 MiB). Send less, or raise the limit in createRuntime().",
  },
  INPUT_TOO_DEEP: {
    title: "Input nested too deeply",
    doc: "The arguments nest objects and arrays more than 256 levels deep, which no tool input needs and which would overflow the stack of the validators and serialisers that walk them. Send flatter data. No tool code ran.",
  },
  OUTPUT_TOO_DEEP: {
    title: "Output nested too deeply",
    doc: "The tool's result nests objects and arrays more than 256 levels deep (the same limit as for arguments); nothing was kept. Return flatter data.",
  },
  RUNTIME_FAULT: {
    title: "Runtime fault",
    doc: "The runtime itself failed while handling the call (a bug, or the host ran out of stack or memory); the message names the error. The call still has an outcome and a receipt; for a tool that is not read-only and was dispatched, effectUnknown says whether it may have acted. Report it with the message.",
  },
  OUTPUT_INVALID: {
    title: "Invalid output",
    doc: "The tool returned a value that does not match its locked output schema. The value is withheld: the message gives only its size and sha256. Fix the tool or its output schema.",
  },
  OUTPUT_NOT_SERIALISABLE: {
    title: "Output is not JSON data",
    doc: "The tool returned something that is not plain JSON data (a function, Symbol value, undefined field, BigInt, non-finite number, cycle, class instance, accessor that throws, or a __proto__ key). Nothing is dropped or converted silently (Symbol-keyed properties are metadata and are left out): return plain objects, arrays, strings, finite numbers, booleans and null.",
  },
  OUTPUT_TOO_LARGE: {
    title: "Output too large",
    doc: "The canonical JSON of the tool's result is larger than limits.maxOutputBytes (default 4 MiB). Return less (page it yourself or use a result plan), or raise the limit.",
  },
  CANCELLED: {
    title: "Cancelled by the caller",
    doc: "The caller aborted the call's signal (call option signal: an MCP client's cancellation, an AI SDK or Agents SDK abortSignal). The call resolved at once and the tool's AbortSignal was aborted (a sandbox process working on it is killed); for a tool that is not read-only that was already dispatched, the receipt says effectUnknown. Check the effect before calling it again.",
  },
  TIMEOUT: {
    title: "Timed out",
    doc: "The call did not finish within the tool's locked timeoutMs. The call resolved at the deadline and the tool's AbortSignal was aborted; for a tool that is not read-only the receipt says effectUnknown. Raise `timeout` in the tool and rebuild, or make the tool honour its signal.",
  },
  EFFECT_BLOCKED: {
    title: "Effect blocked",
    doc: "Fixture mode runs only read tools: write, idempotent and external tools are refused before any of their code runs. A speculative call of a tool that is not read-only is refused the same way. Use host mode to execute effects.",
  },
  REPEAT_STOPPED: {
    title: "Repeated call stopped",
    doc: "An identical call (same tool, canonically equal arguments) already ran in this run; the message names its receipt. Change the arguments, use that result, or set allowRepeat: true on a polling tool and rebuild.",
  },
  NESTED_NOT_DECLARED: {
    title: "Nested tool not declared",
    doc: "A tool called context.call() with a tool it did not declare in nestedTools. Declare it in nestedTools and rebuild.",
  },
  PARENT_SETTLED: {
    title: "Parent call already finished",
    doc: "A tool called context.call() after its own call had finished (for example after its timeout). Nothing runs on behalf of a call whose outcome is already reported: await nested calls inside execute.",
  },
  BUDGET_EXCEEDED: {
    title: "Run budget exceeded",
    doc: "The run has used its call budget (budget.maxCalls, default 1000, nested calls included) or its wall-time budget (budget.maxWallMs, default 600000 ms). Start a new run, or raise the budget.",
  },
  BREAKER_OPEN: {
    title: "Circuit breaker open",
    doc: "The tool failed breaker.failureThreshold times in a row (default 5); calls are refused until breaker.cooldownMs (default 30000 ms) has passed, then one trial call decides whether it closes again.",
  },
  TOOL_ERROR: {
    title: "Tool error",
    doc: "The tool's execute threw or rejected; the message carries its error message. Transient failures of read and idempotent tools were retried first (see docs/runtime.md).",
  },
  LOCK_MISMATCH: {
    title: "Lock mismatch",
    doc: "What would be loaded does not match cave.lock: the lock's integrity hash is wrong (checked at start-up), or a tool's entry does not match its hash in toolHashes or is missing (checked on that tool's first use; the other tools still run), or a staged bundle or validator module is missing or its sha256 differs, or a bundle does not export the locked tool. Rebuild with cave build and deploy cave.lock together with its build folder.",
  },
  LOCK_INVALID: {
    title: "Lock is not valid",
    doc: "cave.lock is not JSON, or not the shape of its lockfileVersion (a field is missing or has the wrong type, or a path leaves the project). Regenerate it with cave build; never edit it by hand.",
  },
  LOCK_VERSION_UNSUPPORTED: {
    title: "Unsupported lockfile version",
    doc: "The lock's lockfileVersion is not one this runtime understands; the message names both. A lockfileVersion 1 lock (an earlier cave build) is not run by this runtime: run cave build with the cave version you deploy (cave diff reads both versions) and deploy the new lock with its build folder.",
  },
  LOCK_NOT_FOUND: {
    title: "Lock not found",
    doc: "No lock file at the given path (default cave.lock under the root). Run cave build, or pass root/lock to createRuntime().",
  },
  OPTIONS_INVALID: {
    title: "Invalid runtime options",
    doc: "createRuntime(), startRun() or call() received an unknown option key or a value of the wrong kind. The message names the option; fix its spelling or value.",
  },
  SANDBOX_UNAVAILABLE: {
    title: "Sandbox unavailable",
    doc: 'A sandboxed tool cannot run here, and it is never run in-process instead: the runtime has no sandbox dispatcher, this Node has no permission model, the isolation setting is "os" and the sandbox\'s OS layer (bubblewrap) cannot start on this machine (createRuntime() and cave verify say so, naming what to install or the setting that blocks it, such as a container\'s seccomp profile), or a path the child needs holds a character Node\'s permission flags interpret. Fix what the message names, or set isolation "auto" to run with the Node layers only.',
  },
  /** The child-process sandbox's outcomes (codes/sandbox.ts). */
  ...SANDBOX_CODES,
  /** Executing result plans and the reserved tools cave_page / cave_recover (codes/results.ts). */
  ...RESULTS_RUNTIME_CODES,
  /** Durable runs: a runtime with a journal (codes/journal.ts). */
  ...JOURNAL_RUNTIME_CODES,
} as const satisfies Record<string, CodeEntry>;

/** A runtime outcome or error code. */
export type RuntimeCode = keyof typeof RUNTIME_CODES;
