/** Loads and verifies cave.lock, then runs tool calls exactly as locked. */
export { createRuntime, type Runtime, type Run } from "./create-runtime.js";
/** What createRuntime() accepts, and the defaults it fills in. */
export {
  DEFAULTS,
  RUN_ID_PATTERN,
  MAX_CORRELATION_ID,
  type RuntimeOptions,
  type RunOptions,
  type ResolvedRunOptions,
  type CallOptions,
  type BudgetOptions,
  type BreakerOptions,
  type LimitOptions,
  type RetryOptions,
} from "./options/options.js";
/** The error createRuntime(), startRun(), verifyAll() and bad options throw (a tool's failure is an outcome instead). */
export { RuntimeError } from "./errors.js";
/** Where receipts go, and an in-memory sink. */
export { MemoryReceiptSink, type ReceiptSink } from "./run/receipts.js";
/** The dispatcher that runs tools in this process (sandbox: "none", and tests). */
export { inProcessDispatcher } from "./dispatch/in-process.js";
/** The interface a dispatcher (the in-process one, the child-process sandbox) implements. */
export type {
  Dispatcher,
  DispatchRequest,
  DispatchResult,
  DispatchFailure,
  OpaqueValidationRequest,
  OpaqueValidationResult,
  ToolContext,
  ValidationIssue,
} from "./dispatch/types.js";
/** What adapters need of each callable tool (runtime.describeTools()). */
export type { ToolInfo } from "./tools/describe-tools.js";
/** Provider tool declarations and the MCP hints derived from effects. */
export {
  MCP_HINTS,
  NO_INPUT_SCHEMA,
  type DeclarationFormat,
  type DeclarationsOf,
  type OpenAIToolDeclaration,
  type AnthropicToolDeclaration,
  type McpToolDeclaration,
} from "./tools/declarations.js";
/** Which tool failures are transient (retried for read and idempotent tools). */
export { TRANSIENT_ERROR_CODES, isTransient } from "./run/retry.js";
/** The closed set of runtime outcome codes, with title and doc each. */
export { RUNTIME_CODES, type RuntimeCode } from "../src/contract/codes/runtime.js";
/** Call outcomes and receipts. */
export type { CallOutcome, Receipt, CallError, EgressRecord } from "../src/contract/outcome.js";
export type { EgressOptions, SecretProvider } from "./sandbox/egress/options.js";
/** The child-process sandbox that runs `sandbox: "required"` tools (the default dispatcher for them), and the layers it has here. */
export {
  createSandboxDispatcher,
  sandboxLayers,
  SANDBOX_DEFAULTS,
  type SandboxDispatcher,
  type SandboxOptions,
  type SandboxLayers,
  type PoolStats,
  ISOLATION_ENV,
  type Isolation,
  type IsolationSetting,
} from "./sandbox/index.js";
/** Durable runs: the Journal interface, the SQLite (default) and file backends, and how a setting opens one. */
export {
  FileJournal,
  SqliteJournal,
  PostgresJournal,
  parsePostgresSetting,
  DEFAULT_POSTGRES_URL_ENV,
  type PostgresSetting,
  JournalError,
  openJournal,
  journalPath,
  configuredJournal,
  JOURNAL_ENV,
  DEFAULT_SQLITE_PATH,
  type Journal,
  type Intent,
  type Completion,
  type CallKey,
  type RecordedCall,
  type RecordedRun,
  type RunSummary,
  type ExpireOptions,
  type LockChange,
} from "./journal/index.js";
/** Result plans: where exact results are stored for cave_page / cave_recover (default: files under <root>/.cave-state/recovery), and the reserved tools. */
export {
  createFileRecoveryStore,
  createMemoryRecoveryStore,
  RESERVED_TOOLS,
  reservedToolsFor,
  type RecoveryStore,
  type ReservedTool,
} from "./results/index.js";
export { useRecoveryStore, defaultRecoveryDir } from "./results/attach.js";
