/** What every call yields, nested calls included: the data a durable journal records. */
export interface Receipt {
  readonly callId: string;
  readonly parentId: string | null;
  /** The run the call belongs to: the id startRun({ id }) named it with, or the run's random UUID. */
  readonly runId: string;
  /** The caller's id for the call (call option correlationId: a framework's tool call id); null when none was given, and for nested calls. */
  readonly correlationId: string | null;
  readonly tool: string;
  /** The lock's integrity, or null for an ordinary (unlocked) run. */
  readonly lockIntegrity: string | null;
  /** sha256 of the canonical JSON of the arguments. */
  readonly argsSha256: string;
  /** sha256 of the canonical JSON of the validated result; null when there is none. */
  readonly resultSha256: string | null;
  /** "ok" or the error code. */
  readonly outcome: string;
  /** For an effectful tool that timed out, was cancelled or crashed after dispatch: whether its effect may have happened. */
  readonly effectUnknown: boolean;
  readonly durationMs: number;
  /**
   * What the tool's code ran under: "os" (the sandbox's OS layer with the Node layers inside), "node" (the Node
   * layers only), "none" (in the host process); null when the call was refused before it reached its dispatcher
   * (or a dispatcher passed in does not say).
   */
  readonly isolation: "os" | "node" | "none" | null;
  /** Tools with sandboxProfile.egress only: each request the tool sent through its egress broker, in the order they ended. */
  readonly egress?: readonly EgressRecord[];
}

/** One request through the egress broker, as a receipt records it: never a header, a body or a credential. */
export interface EgressRecord {
  readonly host: string;
  readonly port: number;
  readonly method: string;
  /** The upstream's status code; null when there was no response. */
  readonly status: number | null;
  /** "ok" (answered in full), "refused" (policy), "failed" (upstream unreachable or broke), "cut" (the call ended first). */
  readonly outcome: "ok" | "refused" | "failed" | "cut";
  /** Request body bytes sent upstream and response body bytes received. */
  readonly bytesSent: number;
  readonly bytesReceived: number;
  readonly durationMs: number;
}

export interface CallError {
  readonly code: string;
  readonly message: string;
  /**
   * TOOL_ERROR only, when the thrown value had a stack: its frames in the tool's own code, the packages it bundles and
   * its external packages, as `name (file:line:column)` (or `file:line:column`) with the original file of bundled code
   * (the bundle's source map) as a project-relative path, innermost first, at most 20. Frames elsewhere (Node's
   * internals, cave's own code) are left out; nothing names a path of the machine (docs/runtime.md, "Logs and stacks").
   */
  readonly stack?: readonly string[];
}

/**
 * `logs`: sandboxed tools only, when the call's execute wrote anything: the last 8 KiB of what it wrote to stdout and
 * stderr (console.log, console.error... and process.stdout/stderr writes), in the order written, as UTF-8 text; when
 * more was written it starts with a line saying how many bytes were left out (docs/runtime.md, "Logs and stacks").
 */
export type CallOutcome =
  | { readonly ok: true; readonly content: unknown; readonly receipt: Receipt; readonly logs?: string }
  | { readonly ok: false; readonly error: CallError; readonly receipt: Receipt; readonly logs?: string };
