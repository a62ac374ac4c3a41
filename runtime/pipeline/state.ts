import type { EgressRecord } from "../../src/contract/outcome.js";
import type { RuntimeCode } from "../../src/contract/codes/runtime.js";
import type { LockedTool } from "../../src/contract/lock.js";
import type { RuntimeLock } from "../lock/read-lock.js";
import type { Breakers } from "../run/breaker-state.js";
import type { CallSignal } from "../run/call-signal.js";
import type { Dispatcher, ToolContext } from "../dispatch/types.js";
import type { Journal } from "../journal/types.js";
import type { DataSnapshot } from "./json-data.js";
import type { Loader } from "../loading/loader.js";
import type { CallOptions, ResolvedOptions } from "../options/options.js";
import type { ResultPlans } from "../results/engine.js";
import type { RepeatHolder } from "../run/repeat-index.js";
import type { RunState } from "../run/run-state.js";
import type { JournaledCall } from "./journal.js";

/** What every call of one runtime shares. */
export interface Engine {
  readonly lock: RuntimeLock;
  /** Absolute; never shown. */
  readonly root: string;
  readonly options: ResolvedOptions;
  readonly loader: Loader;
  readonly breakers: Breakers;
  readonly dispatchers: { readonly required: Dispatcher; readonly none: Dispatcher; readonly reserved: Dispatcher };
  /** A random secret of this runtime: the key of the fingerprint an OUTPUT_INVALID message gives (validate-output.ts). */
  readonly withheldKey: Uint8Array;
  /** Where this runtime's runs are recorded (createRuntime's journal), or undefined. */
  readonly journal: Journal | undefined;
  /** The result-plan executor: the root's shared one, or one over the journal's store when there is a journal. */
  plans(): Promise<ResultPlans>;
  /** Tools resolved so far, by name: a lock entry is read (parsed and checked) once, then found here. */
  readonly resolved: Map<string, LockedTool>;
}

/** How a call ended when it did not succeed: the outcome's error. */
export interface Failure {
  readonly ok?: undefined;
  readonly code: RuntimeCode;
  readonly message: string;
  /** TOOL_ERROR: the mapped frames of what the tool threw (the outcome's error.stack). */
  readonly stack?: readonly string[];
}

/** A call on its way through the pipeline; each stage reads what earlier ones settled. */
export interface CallState {
  readonly engine: Engine;
  readonly run: RunState;
  readonly callId: string;
  readonly parent: CallState | null;
  /** The name as asked for (possibly not a locked tool). */
  readonly name: string;
  readonly args: unknown;
  readonly options: CallOptions;
  readonly startedAt: number;
  /** Set by resolve. */
  tool: LockedTool | undefined;
  dispatcher: Dispatcher | undefined;
  /** The arguments as detached JSON data (resolve), or undefined when they are not JSON data. */
  args$: DataSnapshot | undefined;
  /** Set when the breaker let the call through: whether it is the half-open trial. */
  breakerTrial: boolean | undefined;
  /** The same for the run's own breaker. */
  runBreakerTrial: boolean | undefined;
  /** The repeat-guard entry this call holds. */
  repeat: RepeatHolder | undefined;
  /** Input was valid and the call went to its dispatcher: from here on it counts as having run. */
  dispatched: boolean;
  effectUnknown: boolean;
  /** The outcome is decided (nested calls made after this are refused). */
  settled: boolean;
  /** While the call runs under its deadline: `cut` ends it now with BUDGET_EXCEEDED, saying why (set by the deadline stage). */
  frame: { cut(why: string): void } | undefined;
  /** Aborted at the deadline; nested calls follow it (set by the deadline stage). */
  abort: CallSignal | undefined;
  context: ToolContext | undefined;
  /** Set by the journal match stage in a journaled run. */
  journaled: JournaledCall | undefined;
  /** Tools with scoped egress: each request the sandbox's broker served for this call (every attempt), for the receipt. */
  egress: EgressRecord[] | undefined;
  /** The tail of the tool's stdout and stderr in its last attempt (sandboxed tools), for the outcome's `logs`. */
  logs: string | undefined;
}

/** How a call ended when it succeeded: what enters context, and the validated result whose hash the receipt names. */
export interface Success {
  readonly ok: true;
  readonly content: unknown;
  readonly result: { readonly sha256: string };
}
