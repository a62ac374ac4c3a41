import type { RuntimeCode } from "../../src/contract/codes/runtime.js";
import type { LockedTool } from "../../src/contract/lock.js";
import type { CallOutcome, EgressRecord } from "../../src/contract/outcome.js";

/** What a running tool gets besides its input (the same shape as the SDK's ToolContext). */
export interface ToolContext {
  /** Aborted at the deadline. */
  readonly signal: AbortSignal;
  /** This call's id, as in its receipt. */
  readonly callId: string;
  /** Idempotent tools only: a key that is the same for every attempt of this call and across a resumed durable run (pass it to the system the tool acts on). */
  readonly idempotencyKey?: string | undefined;
  /** Calls one of the tool's declared nested tools through the same pipeline. */
  call(name: string, args: unknown): Promise<CallOutcome>;
}

/** One problem a validator found: a JSON Pointer into the value ("" for the whole value) and what is wrong. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** Everything a dispatcher needs to run one attempt of a call. */
export interface DispatchRequest {
  readonly name: string;
  readonly tool: LockedTool;
  /** The project root the lock's paths are relative to (absolute; never put it in a message). */
  readonly root: string;
  /** The run the call belongs to: the sandbox never shares a child process across runs. */
  readonly runId: string;
  /** The validated input (after a Standard Schema's transforms). */
  readonly input: unknown;
  readonly context: ToolContext;
  /** Tools with scoped egress: where the sandbox records each request its broker serves for this call (the receipt's `egress`). */
  readonly egressLog?: EgressRecord[] | undefined;
  /** Imports the tool's staged bundle after checking its bytes against the lock (once per bundle). */
  loadModule(): Promise<Readonly<Record<string, unknown>>>;
  /** Checks the tool's files against the lock and puts them in the runtime's private copy (once each), for a sandboxed child. */
  stageFiles(): Promise<StagedFiles>;
  /** A thrown error's raw V8 stack as an outcome's `error.stack` frames (runtime/stack/map-stack.ts); absent for a hand-made request. */
  mapStack?(raw: string): Promise<readonly string[]>;
}

/** A tool's files in the runtime's private copy (runtime/loading/private-copy.ts): what a sandboxed child imports and may read. */
export interface StagedFiles {
  /** Absolute path of the bundle to import (never shown). */
  readonly bundle: string;
  /** Absolute paths of every file of the copy the tool's code loads: the bundle, the SDK module it imports, its assets. */
  readonly readable: readonly string[];
}

/** A typed failure a dispatcher reports instead of throwing. */
export interface DispatchFailure {
  readonly ok: false;
  readonly code: RuntimeCode;
  readonly message: string;
  /** The failure is worth retrying for a retryable tool (see docs/runtime.md, "Retries"). */
  readonly transient: boolean;
  /** The tool may have done part of its effect (for example its process died mid-call). */
  readonly effectUnknown: boolean;
  /** TOOL_ERROR: where the error was thrown, mapped to the original files (the outcome's `error.stack`). */
  readonly stack?: readonly string[];
  /** The tail of what the tool wrote to stdout and stderr during the attempt (the outcome's `logs`). */
  readonly logs?: string;
}

export type DispatchResult = { readonly ok: true; readonly value: unknown; readonly logs?: string } | DispatchFailure;

/** A Standard Schema run: opaque validators are tool code and run where the tool runs. */
export interface OpaqueValidationRequest {
  readonly name: string;
  readonly tool: LockedTool;
  readonly root: string;
  /** The run the call belongs to: the sandbox never shares a child process across runs. */
  readonly runId: string;
  readonly side: "input" | "output";
  readonly value: unknown;
  loadModule(): Promise<Readonly<Record<string, unknown>>>;
  stageFiles(): Promise<StagedFiles>;
}

export type OpaqueValidationResult =
  | { readonly ok: true; readonly value: unknown }
  /** The validator rejected the value. */
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] }
  /** The validator could not run (it threw, or the bundle did not verify). */
  | { readonly ok: false; readonly code: RuntimeCode; readonly message: string };

/**
 * Runs tool code. The runtime picks a dispatcher by the tool's locked sandbox mode and never throws
 * through one: implementations return typed failures. The in-process dispatcher ships here; the
 * restricted child-process sandbox implements the same interface.
 */
export interface Dispatcher {
  /** Calls the tool's execute with the validated input; resolves with its raw result or a typed failure. */
  dispatch(request: DispatchRequest): Promise<DispatchResult>;
  /** Runs the tool's Standard Schema (`~standard.validate`, async allowed) for one side. */
  validateOpaque(request: OpaqueValidationRequest): Promise<OpaqueValidationResult>;
  /**
   * Optional: made ready before the runtime is (createRuntime awaits it) for the locked tools it will run, which
   * live under `root`; rejects (a RuntimeError) when the dispatcher cannot run here, or cannot run one of them as locked.
   */
  prepare?(tools: Readonly<Record<string, LockedTool>>, root: string): Promise<void>;
  /** Optional: what tool code runs under, for receipts: "os" (OS layer and Node layers), "node" (Node layers only), "none" (in the host process); null when not known. */
  isolation?(): "os" | "node" | "none" | null;
}

/**
 * The runtime's own dispatchers may also answer at once: a method under this symbol (never set by a user's dispatcher,
 * which cannot name it) returns the result itself when it has it without waiting (an in-process tool already loaded
 * that returns a value), else the same promise `dispatch` would. A promise per call cost more than the rest of such a
 * call's bookkeeping.
 */
export const DISPATCH_NOW: unique symbol = Symbol("cave.dispatchNow");

type AnswersNow = Dispatcher & {
  readonly [DISPATCH_NOW]?: (request: DispatchRequest) => DispatchResult | Promise<DispatchResult>;
};

/** Dispatches through DISPATCH_NOW when the dispatcher has it, else through `dispatch`. */
export function dispatchNow(
  dispatcher: Dispatcher,
  request: DispatchRequest,
): DispatchResult | Promise<DispatchResult> {
  const now = (dispatcher as AnswersNow)[DISPATCH_NOW];
  return now === undefined ? dispatcher.dispatch(request) : now(request);
}
