import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Static, TSchema } from "@sinclair/typebox";
import type { Effect } from "./contract/effects.js";
import type { ArtifactOptions, ResultPolicyName } from "./contract/lock.js";
import type { ARTIFACT_BRAND, AGENT_BRAND, TOOL_BRAND } from "./contract/brands.js";
import type { CallOutcome } from "./contract/outcome.js";
import type { SecretScope } from "./contract/egress.js";

export type { Effect } from "./contract/effects.js";
export type { ArtifactOptions, ResultPolicyName } from "./contract/lock.js";
export type { CallOutcome, Receipt, CallError } from "./contract/outcome.js";

/** A schema.* (TypeBox) value or a Standard Schema v1 validator. */
export type ToolSchema = TSchema | StandardSchemaV1;

/** What execute receives: the validated value (after a Standard Schema's transforms). */
export type InputOf<S> = [S] extends [undefined]
  ? unknown
  : S extends TSchema
    ? Static<S>
    : S extends StandardSchemaV1
      ? StandardSchemaV1.InferOutput<S>
      : unknown;
/** What execute must return: what the output validator accepts. */
export type OutputOf<S> = [S] extends [undefined]
  ? unknown
  : S extends TSchema
    ? Static<S>
    : S extends StandardSchemaV1
      ? StandardSchemaV1.InferInput<S>
      : unknown;

/** The value artifact() returns: a result policy with an inline token cap. */
export interface ArtifactPolicy extends ArtifactOptions {
  readonly [ARTIFACT_BRAND]: true;
}

export type ResultPolicy = ResultPolicyName | ArtifactPolicy;

export interface SandboxProfile {
  /** Must be false or absent: unbounded network access fails closed (list hosts in `egress` instead). */
  readonly network?: false;
  /** Environment names the tool may receive (denied names are refused). */
  readonly env?: readonly string[];
  /**
   * Hosts the tool may reach through the host's egress broker: "api.github.com", "hooks.example.com:8443",
   * "*.example.com" (one label). Tools whose effect is not "read" only; needs the sandbox's OS layer.
   */
  readonly egress?: readonly string[];
  /** Credentials the broker adds to requests to their hosts; the tool never sees the values. */
  readonly secrets?: Readonly<Record<string, SecretOptions>>;
  /**
   * What the tool may read and write (docs/sandbox.md, "Filesystem scopes"): paths relative to the project root
   * (`"data/orders"`) or under a named runtime setting (`"$ORDERS_DIR"`, `"$ORDERS_DIR/archive"`). `read`: directories,
   * files or globs, mounted read-only; `write`: directories only, created at deploy and mounted read-write (not for
   * read tools). Enforced by the OS layer and Node's permission model; refused where the OS layer is unavailable.
   */
  readonly fs?: { readonly read?: readonly string[]; readonly write?: readonly string[] };
  /**
   * The tool loads native addons (better-sqlite3, sharp). Addons bypass Node's permission model, so such a tool runs
   * only under the sandbox's OS layer (OS_LAYER_REQUIRED without it). A new power: cave diff shows it.
   */
  readonly addons?: boolean;
}

/** One credential: sent as `header: format` (with {} replaced by the value) on requests to `hosts` only. */
export interface SecretOptions {
  /** Hosts that receive it (each also allowed by egress). */
  readonly hosts: readonly string[];
  /** Default "authorization". */
  readonly header?: string;
  /** Default "Bearer {}". */
  readonly format?: string;
}

/** What a running tool gets besides its input. */
export interface ToolContext {
  /** Aborted at the deadline or when the run is cancelled. */
  readonly signal: AbortSignal;
  /** This call's id, as in its receipt. */
  readonly callId: string;
  /** Idempotent tools only: a key that is the same for every attempt of this call and across a resumed durable run (pass it to the system the tool acts on). */
  readonly idempotencyKey?: string | undefined;
  /** Calls one of the declared nested tools through the same pipeline (schemas, budget, timeout, receipt). */
  call(name: string, args: unknown): Promise<CallOutcome>;
}

export interface ToolOptions<I extends ToolSchema | undefined, O extends ToolSchema | undefined> {
  /** Matches ^[a-zA-Z][a-zA-Z0-9_-]{0,127}$; cave_ is reserved. */
  name: string;
  /** What the model reads to decide when to call the tool. */
  description: string;
  input?: I;
  output?: O;
  /** draft-07 JSON Schema of the input, for a validator that cannot describe it (validation-only, or a transform). */
  inputJSONSchema?: Record<string, unknown>;
  /** draft-07 JSON Schema of the output (what the validator returns), for a validator that cannot describe it (validation-only, or a transform). */
  outputJSONSchema?: Record<string, unknown>;
  /** Lowercase SHA-256 of opaque validator code, dependencies and captured state; locks require it. */
  schemaSemanticsSHA256?: string;
  /** No default: say what the tool does. */
  effect: Effect;
  /** Milliseconds; default 30000. */
  timeout?: number;
  /** Default "auto". */
  result?: ResultPolicy;
  /** Default false: identical repeated calls are stopped. */
  allowRepeat?: boolean;
  /** Default "required": run in the restricted child process. */
  sandbox?: "required" | "none";
  sandboxProfile?: SandboxProfile;
  /** Tools this composite may call through context.call (one level deep). */
  nestedTools?: readonly AnyToolDefinition[];
  execute(input: InputOf<I>, context: ToolContext): OutputOf<O> | Promise<OutputOf<O>>;
}

/** The frozen value tool() returns, with every default filled in. */
export interface ToolDefinition<
  I extends ToolSchema | undefined = ToolSchema | undefined,
  O extends ToolSchema | undefined = ToolSchema | undefined,
> {
  readonly [TOOL_BRAND]: true;
  readonly name: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly inputJSONSchema: Record<string, unknown> | undefined;
  readonly outputJSONSchema: Record<string, unknown> | undefined;
  readonly schemaSemanticsSHA256: string | undefined;
  readonly effect: Effect;
  readonly timeout: number;
  readonly result: ResultPolicy;
  readonly allowRepeat: boolean;
  readonly sandbox: "required" | "none";
  readonly sandboxProfile: {
    readonly network: false;
    readonly env: readonly string[];
    readonly egress: readonly string[];
    readonly secrets: Readonly<Record<string, SecretScope>>;
    readonly fs: { readonly read: readonly string[]; readonly write: readonly string[] };
    readonly addons: boolean;
  };
  readonly nestedTools: readonly AnyToolDefinition[];
  readonly execute: (input: InputOf<I>, context: ToolContext) => OutputOf<O> | Promise<OutputOf<O>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;

export interface AgentOptions<T extends readonly AnyToolDefinition[]> {
  name: string;
  description?: string;
  tools: T;
}

export interface AgentDefinition<T extends readonly AnyToolDefinition[] = readonly AnyToolDefinition[]> {
  readonly [AGENT_BRAND]: true;
  readonly name: string;
  readonly description: string | undefined;
  readonly tools: T;
}
