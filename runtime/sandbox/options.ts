import { isAbsolute } from "node:path";
import { mustBe, rule, type Rules } from "../../src/contract/options.js";
import { checkOptions } from "../options/option-checks.js";
import { DEFAULTS } from "../options/options.js";
import { isolationSetting, type IsolationSetting } from "./isolation.js";
import {
  resolveEgressOptions,
  secretProvider,
  type EgressOptions,
  type ResolvedEgressOptions,
  type SecretProvider,
} from "./egress/options.js";

/** What createSandboxDispatcher() accepts; every key is optional. */
export interface SandboxOptions {
  /** JavaScript heap limit of each child in MiB (--max-old-space-size; default 512). */
  readonly heapMb?: number;
  /** Resident memory, off-heap included, past which the host kills a child, in MiB (default 1024; Linux only). */
  readonly maxRssMb?: number;
  /** A child is replaced after this many requests (default 10000); any timeout, crash or protocol error replaces it at once. */
  readonly recycleAfterCalls?: number;
  /** Warm children kept across all tools and runs (default 8); the least recently used go first. */
  readonly maxIdle?: number;
  /** Sandbox processes alive at once per dispatcher (default 16): working, starting, idle and spare. At the cap an idle one is stopped to make room; with none idle a call waits. */
  readonly maxChildren?: number;
  /** Calls that may wait for a process at the cap (default 64); past that a call is refused with SANDBOX_BUSY. */
  readonly maxQueued?: number;
  /** A warm child unused this long is stopped (default 30000 ms). */
  readonly idleTimeoutMs?: number;
  /** After a tool's call, keep one child started for it (bundle verified and imported, no request served yet) so the tool's first call in the next run skips the start-up (default true). */
  readonly spare?: boolean;
  /** A child must have loaded its tool (module top-level code included) within this many ms of being started (default 10000). */
  readonly startTimeoutMs?: number;
  /**
   * "auto" (default, or CAVE_ISOLATION): children run under the OS layer (bubblewrap) where it can start, else with
   * the Node layers only, said once on stderr and in every receipt; "os": refuse to run without the OS layer
   * (SANDBOX_UNAVAILABLE); "node": the Node layers only.
   */
  readonly isolation?: IsolationSetting;
  /** Absolute path of bubblewrap's `bwrap` where it is not at a usual path (default: CAVE_BWRAP, else /usr/bin/bwrap and the like). */
  readonly bwrap?: string;
  /** Scoped egress: test and development host mappings (`resolve`) and extra certificate authorities (`ca`) for the broker. */
  readonly egress?: EgressOptions;
  /** Where the values of sandboxProfile.secrets come from (default: the host's environment): a record, or a function a deploy backs with a vault. */
  readonly secrets?: SecretProvider;
  /** The runtime's byte caps (the runtime passes its own): outputs are checked against them inside the child. */
  readonly limits?: { readonly maxInputBytes?: number; readonly maxOutputBytes?: number };
}

export interface ResolvedSandboxOptions {
  readonly heapMb: number;
  readonly maxRssMb: number;
  readonly recycleAfterCalls: number;
  readonly maxIdle: number;
  readonly maxChildren: number;
  readonly maxQueued: number;
  readonly idleTimeoutMs: number;
  readonly spare: boolean;
  readonly startTimeoutMs: number;
  readonly isolation: IsolationSetting;
  readonly bwrap: string | undefined;
  readonly egress: ResolvedEgressOptions;
  readonly secrets: SecretProvider | undefined;
  readonly maxInputBytes: number;
  readonly maxOutputBytes: number;
}

export const SANDBOX_DEFAULTS = {
  heapMb: 512,
  maxRssMb: 1024,
  recycleAfterCalls: 10_000,
  maxIdle: 8,
  maxChildren: 16,
  maxQueued: 64,
  idleTimeoutMs: 30_000,
  spare: true,
  startTimeoutMs: 10_000,
} as const;

const SANDBOX_RULES: Rules = {
  heapMb: mustBe.integerAtLeast(16),
  maxRssMb: mustBe.integerAtLeast(32),
  recycleAfterCalls: mustBe.integerAtLeast(1),
  maxIdle: mustBe.integerAtLeast(0),
  maxChildren: mustBe.integerAtLeast(1),
  maxQueued: mustBe.integerAtLeast(0),
  idleTimeoutMs: mustBe.integerAtLeast(1),
  spare: mustBe.boolean,
  startTimeoutMs: mustBe.integerAtLeast(1),
  isolation: null,
  bwrap: rule((value) => typeof value === "string" && isAbsolute(value), "the absolute path of bubblewrap's bwrap"),
  egress: null,
  secrets: null,
  limits: null,
};

const LIMIT_RULES: Rules = { maxInputBytes: mustBe.integerAtLeast(1), maxOutputBytes: mustBe.integerAtLeast(1) };

/** Checks createSandboxDispatcher() options (unknown keys refused) and fills in the defaults. */
export function resolveSandboxOptions(options: unknown): ResolvedSandboxOptions {
  const o = checkOptions(options ?? {}, "createSandboxDispatcher() options", SANDBOX_RULES);
  const limits = o.limits === undefined ? {} : checkOptions(o.limits, "limits", LIMIT_RULES);
  const given = <K extends keyof typeof SANDBOX_DEFAULTS>(key: K) =>
    (o[key] as (typeof SANDBOX_DEFAULTS)[K] | undefined) ?? SANDBOX_DEFAULTS[key];
  return {
    heapMb: given("heapMb"),
    maxRssMb: given("maxRssMb"),
    recycleAfterCalls: given("recycleAfterCalls"),
    maxIdle: given("maxIdle"),
    maxChildren: given("maxChildren"),
    maxQueued: given("maxQueued"),
    idleTimeoutMs: given("idleTimeoutMs"),
    spare: given("spare"),
    startTimeoutMs: given("startTimeoutMs"),
    isolation: isolationSetting(o.isolation),
    bwrap: o.bwrap as string | undefined,
    egress: resolveEgressOptions(o.egress),
    secrets: secretProvider(o.secrets),
    maxInputBytes: (limits.maxInputBytes as number | undefined) ?? DEFAULTS.limits.maxInputBytes,
    maxOutputBytes: (limits.maxOutputBytes as number | undefined) ?? DEFAULTS.limits.maxOutputBytes,
  };
}
