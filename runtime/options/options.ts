import type { Dispatcher } from "../dispatch/types.js";
import { mustBe, rule, type Rule, type Rules } from "../../src/contract/options.js";
import { checkOptions, invalidOption } from "./option-checks.js";
import type { Journal } from "../journal/types.js";
import type { ReceiptSink } from "../run/receipts.js";
import { resolve as resolvePath } from "node:path";
import { configuredValue } from "./project-config.js";
import { isolationSetting, type IsolationSetting } from "../sandbox/isolation.js";
import {
  resolveEgressOptions,
  secretProvider,
  type EgressOptions,
  type SecretProvider,
} from "../sandbox/egress/options.js";

/** Limits a run works within. */
export interface BudgetOptions {
  /** Calls per run, nested calls included (default 1000). */
  readonly maxCalls?: number;
  /** Wall-clock milliseconds from the run's start (default 600000, ten minutes). */
  readonly maxWallMs?: number;
}

/** The per-tool circuit breaker. */
export interface BreakerOptions {
  /** Consecutive tool failures that open the breaker (default 5). */
  readonly failureThreshold?: number;
  /** Milliseconds an open breaker refuses calls before one trial call is let through (default 30000). */
  readonly cooldownMs?: number;
}

/** Byte caps on the canonical JSON of arguments and results. */
export interface LimitOptions {
  /** Default 1 MiB. */
  readonly maxInputBytes?: number;
  /** Default 4 MiB. */
  readonly maxOutputBytes?: number;
}

/** Retries of read and idempotent tools after a transient failure. */
export interface RetryOptions {
  /** Attempts per call including the first (default 3; 1 disables retries). */
  readonly maxAttempts?: number;
}

export interface RuntimeOptions {
  /** The project root (default process.cwd()). */
  readonly root?: string;
  /** The lock file, relative to the root (default "cave.lock"). */
  readonly lock?: string;
  /** "host" executes every effect; "fixture" executes read tools only. */
  readonly mode: "host" | "fixture";
  readonly budget?: BudgetOptions;
  readonly breaker?: BreakerOptions;
  readonly limits?: LimitOptions;
  readonly retry?: RetryOptions;
  /** Where every call's receipt goes (default: nowhere). */
  readonly receipts?: ReceiptSink;
  /**
   * Where runs are recorded for durable resumption: a setting ("sqlite:<path>", the embedded default
   * that needs better-sqlite3 12; "file:<path>"; relative to root), or a Journal you opened (you close
   * it). Default: the CAVE_JOURNAL environment variable, else none. null: none, whatever the environment says.
   */
  readonly journal?: string | Journal | null;
  /** Who runs tool code, by the tool's sandbox mode. `none` defaults to the in-process dispatcher; `required` to the child-process sandbox (createSandboxDispatcher with these limits). */
  readonly dispatchers?: { readonly required?: Dispatcher; readonly none?: Dispatcher };
  /**
   * The sandbox's isolation (docs/sandbox.md); this option, else CAVE_ISOLATION, else `isolation` in cave.config.json,
   * else "auto". "auto" runs sandboxed tools under the
   * OS layer (bubblewrap) where it can start and says loudly when it cannot; "os" refuses to start the runtime
   * without it (SANDBOX_UNAVAILABLE); "node": the Node layers only. For the runtime's own sandbox dispatcher; one
   * passed in dispatchers.required has its own.
   */
  readonly isolation?: IsolationSetting;
  /**
   * Where the values of sandboxProfile.secrets come from (default: the host's environment): a record, or a function
   * (name) => value a deploy backs with a vault, asked before each call of a tool that declares the secret. For the
   * runtime's own sandbox dispatcher; one passed in dispatchers.required has its own.
   */
  readonly secrets?: SecretProvider;
  /** The egress broker's options (`resolve` for tests and local development, `ca`): see docs/sandbox.md. For the runtime's own sandbox dispatcher. */
  readonly egress?: EgressOptions;
}

export interface RunOptions {
  /**
   * Names the run: every receipt of the run carries it as `runId` (default: a random UUID). A host
   * keeps one run per conversation under a key of its own (an MCP session id, a thread id). With a
   * durable journal configured, starting a run with an id the journal holds resumes that run; without
   * one, the id is only a name, and two runs started with the same id are two runs.
   */
  readonly id?: string;
  /** Overrides the runtime's budget for this run. */
  readonly budget?: BudgetOptions;
  /**
   * A resumed run recorded under another lock: "refuse" (the default: every call answers
   * JOURNAL_LOCK_CHANGED naming both locks) or "replay" (recorded outcomes are replayed as recorded;
   * each replayed receipt names the lock it was recorded under).
   */
  readonly lockChange?: "refuse" | "replay";
}

/** startRun() options, checked. */
export interface ResolvedRunOptions {
  readonly id: string | undefined;
  readonly budget: Required<BudgetOptions>;
  readonly lockChange: "refuse" | "replay";
}

export interface CallOptions {
  /** The call is speculative (programmatic mode running ahead): only speculable (read) tools may run. */
  readonly speculative?: boolean;
  /**
   * Cancels the call when aborted: the outcome is CANCELLED (with a receipt), the tool's own signal is
   * aborted, and a sandbox process working on it is killed. A tool that is not read-only and was
   * already dispatched gets effectUnknown. A signal already aborted refuses the call before dispatch.
   */
  readonly signal?: AbortSignal;
  /** The caller's own id for this call (a framework's tool call id), recorded in the receipt as `correlationId`. */
  readonly correlationId?: string;
  /**
   * For a workflow engine that replays this call from its own record (cave/dbos): the call is answered
   * from the run's journal only, so the run's call keys, budget and repeat guard stay as they were. A
   * call the journal holds no completion for is not run: it answers JOURNAL_FAILED. Needs a journal.
   */
  readonly replayOnly?: boolean;
}

export const DEFAULTS = {
  budget: { maxCalls: 1_000, maxWallMs: 600_000 },
  breaker: { failureThreshold: 5, cooldownMs: 30_000 },
  limits: { maxInputBytes: 1_048_576, maxOutputBytes: 4_194_304 },
  retry: { maxAttempts: 3 },
} as const;

export interface ResolvedOptions {
  readonly root: string | undefined;
  readonly lock: string;
  readonly mode: "host" | "fixture";
  readonly budget: Required<BudgetOptions>;
  readonly breaker: Required<BreakerOptions>;
  readonly limits: Required<LimitOptions>;
  readonly retry: Required<RetryOptions>;
  readonly receipts: ReceiptSink | undefined;
  readonly journal: string | Journal | null | undefined;
  readonly dispatchers: { readonly required: Dispatcher | undefined; readonly none: Dispatcher | undefined };
  readonly isolation: IsolationSetting;
  readonly secrets: SecretProvider | undefined;
  readonly egress: EgressOptions | undefined;
}

const RUNTIME_RULES: Rules = {
  root: mustBe.nonEmptyPathString,
  lock: rule(
    (value) => typeof value === "string" && value !== "",
    'a non-empty path string, relative to root (e.g. "cave.lock")',
  ),
  mode: mustBe.oneOf(["host", "fixture"]),
  budget: null,
  breaker: null,
  limits: null,
  retry: null,
  receipts: rule(
    (value) => typeof value === "object" && value !== null && typeof (value as ReceiptSink).record === "function",
    "a ReceiptSink: an object with a record(receipt) method",
  ),
  journal: rule(
    (value) => value === null || (typeof value === "string" && value !== "") || isJournal(value),
    'a setting such as "sqlite:.cave-state/journal.db" or "file:journal.jsonl", a Journal object, or null',
  ),
  dispatchers: null,
  isolation: null,
  secrets: null,
  egress: null,
};

const DISPATCHER: Rule = rule(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Dispatcher).dispatch === "function" &&
    typeof (value as Dispatcher).validateOpaque === "function",
  "a Dispatcher: an object with dispatch(request) and validateOpaque(request) methods",
);

/** Checks createRuntime() options (unknown keys refused, every value checked) and fills in the defaults. */
export function resolveOptions(options: unknown): ResolvedOptions {
  const o = checkOptions(options, "createRuntime() options", RUNTIME_RULES);
  if (o.mode === undefined)
    invalidOption('mode must be "host" or "fixture" (got undefined); it has no default, say which');
  const receipts = o.receipts;
  const journal = o.journal;
  const dispatchers =
    o.dispatchers === undefined
      ? {}
      : checkOptions(o.dispatchers, "dispatchers", { required: DISPATCHER, none: DISPATCHER });
  return {
    root: o.root as string | undefined,
    lock: (o.lock as string | undefined) ?? "cave.lock",
    mode: o.mode as "host" | "fixture",
    budget: resolveBudget(o.budget, "budget", DEFAULTS.budget),
    breaker: numbers(o.breaker, "breaker", DEFAULTS.breaker, { failureThreshold: 1, cooldownMs: 0 }),
    limits: numbers(o.limits, "limits", DEFAULTS.limits, { maxInputBytes: 1, maxOutputBytes: 1 }),
    retry: numbers(o.retry, "retry", DEFAULTS.retry, { maxAttempts: 1 }),
    receipts: receipts as ReceiptSink | undefined,
    journal: journal as string | Journal | null | undefined,
    dispatchers: {
      required: dispatchers.required as Dispatcher | undefined,
      none: dispatchers.none as Dispatcher | undefined,
    },
    // The project's configuration is read only when neither the option nor CAVE_ISOLATION decides.
    isolation: isolationSetting(o.isolation, process.env, () =>
      configuredValue(resolvePath((o.root as string | undefined) ?? process.cwd()), "isolation"),
    ),
    secrets: secretProvider(o.secrets),
    // Checked now (a wrong key fails createRuntime), passed as given to the sandbox dispatcher, which resolves it.
    egress: (resolveEgressOptions(o.egress), o.egress as EgressOptions | undefined),
  };
}

/**
 * What a run id may be: 1 to 128 characters of letters, digits and `_ . : @ -`, starting with a letter
 * or digit. Ids travel into receipts, journals and file names; a narrow alphabet keeps them safe in all
 * three (no path separators, no control characters, nothing to quote).
 */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** Longest correlation id a receipt keeps (a framework's call id is far shorter). */
export const MAX_CORRELATION_ID = 256;

const RUN_RULES: Rules = {
  id: rule(
    (value) => typeof value === "string" && RUN_ID_PATTERN.test(value),
    "1 to 128 letters, digits and _ . : @ -, starting with a letter or digit",
  ),
  budget: null,
  lockChange: mustBe.oneOf(["refuse", "replay"]),
};

/** Checks startRun() options over the runtime's budget. */
export function resolveRunOptions(options: unknown, base: Required<BudgetOptions>): ResolvedRunOptions {
  if (options === undefined) return { id: undefined, budget: base, lockChange: "refuse" };
  const o = checkOptions(options, "startRun() options", RUN_RULES, "startRun() ");
  return {
    id: o.id as string | undefined,
    budget: resolveBudget(o.budget, "budget", base),
    lockChange: (o.lockChange as "refuse" | "replay" | undefined) ?? "refuse",
  };
}

function isJournal(value: unknown): value is Journal {
  const j = value as Journal | null;
  return (
    typeof j === "object" &&
    j !== null &&
    typeof j.openRun === "function" &&
    typeof j.recordIntent === "function" &&
    typeof j.recordCompletion === "function" &&
    typeof j.recordRefused === "function" &&
    typeof j.close === "function"
  );
}

const CALL_RULES: Rules = {
  speculative: mustBe.boolean,
  signal: rule((value) => value instanceof AbortSignal, "an AbortSignal"),
  correlationId: rule(
    (value) => typeof value === "string" && value.length > 0 && value.length <= MAX_CORRELATION_ID,
    `a string of 1 to ${MAX_CORRELATION_ID} characters`,
  ),
  replayOnly: mustBe.boolean,
};

/** Checks call() options; the common case (none) costs nothing. */
export function resolveCallOptions(options: unknown): CallOptions {
  if (options === undefined) return NO_CALL_OPTIONS;
  return checkOptions(options, "call() options", CALL_RULES, "call option ") as CallOptions;
}

const NO_CALL_OPTIONS: CallOptions = Object.freeze({});

function resolveBudget(value: unknown, at: string, base: Required<BudgetOptions>): Required<BudgetOptions> {
  return numbers(value, at, base, { maxCalls: 1, maxWallMs: 1 });
}

function numbers<T extends Record<string, number>>(
  value: unknown,
  at: string,
  defaults: T,
  minimums: Record<keyof T, number>,
): Required<T> {
  if (value === undefined) return { ...defaults } as Required<T>;
  const rules = Object.fromEntries(
    Object.keys(defaults).map((key) => [key, mustBe.integerAtLeast(minimums[key as keyof T])]),
  );
  const o = checkOptions(value, at, rules);
  const out: Record<string, number> = { ...defaults };
  for (const key of Object.keys(defaults)) if (o[key] !== undefined) out[key] = o[key] as number;
  return out as Required<T>;
}
