import type { SecretScope } from "./egress.js";
import type { LockedFs } from "./fs-scopes.js";
import type { Effect } from "./effects.js";

/**
 * The shape of `cave.lock` (lockfileVersion 2): the only interface between the compiler and the runtime, and the one
 * statement of its shape in TypeScript (docs/cave.lock.schema.json states it for other tools; test/lock-schema.test.ts
 * holds the two and every produced lock together). All paths are POSIX, relative to the project root; all hashes are
 * `sha256-<hex>` (src/contract/hash.ts). Every field is always written: what lock v1 had as optional fields (assets,
 * externals, egress, secrets, fs, addons, the SDK module) are regular fields with an empty value.
 *
 * Sealing (src/contract/lock-seal.ts): `toolHashes` holds one hash per tool entry, and `integrity` covers everything
 * but `tools` (so the per-tool hashes, not the entries). The runtime verifies that small part at start-up and each
 * tool's entry against its hash on first use; `cave verify` and `cave diff` check them all.
 */
export const LOCKFILE_VERSION = 2;

export interface CaveLock extends LockHeader {
  /** Each tool's entry, by name (the last key of the file: runtime/lock/read-lock.ts reads what comes before it alone). */
  readonly tools: Readonly<Record<string, LockedTool>>;
}

/** Everything in a lock but the tools' entries: what the runtime reads and verifies at start-up. */
export interface LockHeader {
  readonly lockfileVersion: number;
  /** sha256 of the canonical JSON of this lock without its `integrity` and `tools` keys (they are pinned by `toolHashes`). */
  readonly integrity: string;
  /** Where the build folder is, relative to the project root (default ".cave"). */
  readonly buildDir: string;
  /** The cave SDK every staged bundle imports, listed once (null when no tool was staged). */
  readonly sdk: LockedSdk | null;
  readonly agents: Readonly<Record<string, LockedAgent>>;
  /**
   * The external packages (cave.config.json `external`) locked tools import and every package they depend on, by install
   * path relative to the project root, as package-lock.json records them ({} when there are none).
   */
  readonly externals: Readonly<Record<string, LockedExternal>>;
  /**
   * The sandboxed tools whose locked powers only the sandbox's OS layer enforces (runtime/sandbox/os-only.ts), sorted:
   * the runtime checks at start-up that it can run them without reading every tool's entry.
   */
  readonly osLayerTools: readonly string[];
  /** sha256 of the canonical JSON of each tool's entry, by tool name: every locked tool is named here. */
  readonly toolHashes: Readonly<Record<string, string>>;
}

/** An installed package a tool imports at run time instead of bundling it: what every machine agrees on. */
export interface LockedExternal {
  readonly name: string;
  readonly version: string;
  /** The registry integrity package-lock.json records (e.g. sha512-...). */
  readonly integrity: string;
  /**
   * true for a package npm installs only where its os/cpu/libc match (package-lock.json marks it optional, e.g. sharp's
   * `@img/sharp-<os>-<cpu>`): every platform's is pinned, and the runtime accepts it absent, or installed at its pin.
   */
  readonly optional: boolean;
}

export interface LockedSdk {
  /** `cave@<version>`: the key each tool's `source.files` uses for the SDK. */
  readonly id: string;
  /** sha256 of the canonical JSON of `files`. */
  readonly sha256: string;
  /** Every file of the SDK's graph, by canonical path, with its sha256. */
  readonly files: Readonly<Record<string, string>>;
  /** The SDK as one ES module in the build folder, which every staged bundle imports by a relative specifier, pinned by the sha256 of its bytes. */
  readonly module: { readonly path: string; readonly sha256: string };
}

export interface LockedAgent {
  readonly module: string;
  readonly export: string;
  readonly description: string | null;
  /** Tool names, sorted. */
  readonly tools: readonly string[];
}

export interface LockedTool {
  readonly module: string;
  readonly export: string;
  readonly description: string;
  readonly effect: Effect;
  /** Only read tools may be run speculatively. */
  readonly speculable: boolean;
  /** read and idempotent tools may be retried with the same arguments. */
  readonly retryable: boolean;
  readonly timeoutMs: number;
  readonly allowRepeat: boolean;
  readonly sandbox: LockedSandbox;
  /** Names of the declared nested tools, sorted. */
  readonly nestedTools: readonly string[];
  readonly source: LockedSource;
  readonly input: LockedSchema | null;
  readonly output: LockedSchema | null;
  readonly result: LockedResult;
}

export interface LockedSandbox {
  readonly mode: "required" | "none";
  readonly network: false;
  /** Environment names the tool may receive, sorted. */
  readonly env: readonly string[];
  /** Hosts the tool may reach through the egress broker, sorted ([] when none). */
  readonly egress: readonly string[];
  /** Credentials the broker injects, by name (never a value; {} when none). */
  readonly secrets: Readonly<Record<string, SecretScope>>;
  /**
   * What the tool may read and write (scope texts as src/contract/fs-scopes.ts normalises them, sorted), null when it
   * declares no scope. Only the OS layer can enforce them (runtime/sandbox/os-only.ts).
   */
  readonly fs: LockedFs | null;
  /**
   * Whether the tool may load native addons (sandboxProfile.addons), which bypass Node's permission model, so its
   * sandbox runs only under the OS layer (runtime/sandbox/os-only.ts).
   */
  readonly addons: boolean;
}

export interface LockedSource {
  /** The staged bundle (self-contained ESM of the tool's module), relative to the project root. */
  readonly bundle: string;
  /** sha256 of the bundle's bytes. */
  readonly sha256: string;
  /** Every input file of the staged source graph, by canonical path, with its sha256; the SDK as one `cave@<version>` entry (see CaveLock.sdk). */
  readonly files: Readonly<Record<string, string>>;
  /**
   * The files the tool's code reads next to itself (static references, cave.config.json assets), staged in the build
   * folder's mirror of the project, each pinned by the sha256 of its bytes (text normalised), sorted by path ([] when
   * none). The runtime verifies them with the bundle and lets only this tool's sandbox read them.
   */
  readonly assets: readonly { readonly path: string; readonly sha256: string }[];
  /**
   * The install paths (keys of the lock's `externals`) of the external packages its bundle imports and of their
   * dependencies, sorted ([] when none). The runtime checks their installed versions before the first use.
   */
  readonly externals: readonly string[];
}

export interface LockedSchema {
  /** The draft-07 JSON Schema sent to providers. */
  readonly jsonSchema: Readonly<Record<string, unknown>> | null;
  /** sha256 of the canonical (RFC 8785) JSON of `jsonSchema`, or null when there is none. */
  readonly sha256: string | null;
  readonly validation: LockedValidation;
}

export type LockedValidation =
  | {
      readonly kind: "precompiled";
      /** The Ajv standalone validator module (self-contained ESM), relative to the project root. */
      readonly module: string;
      readonly sha256: string;
    }
  | {
      readonly kind: "opaque";
      /** `~standard.vendor` of the Standard Schema (zod, valibot, arktype...). */
      readonly vendor: string;
      /** The author's schemaSemanticsSHA256 (64 lowercase hex). */
      readonly semanticsSHA256: string;
    };

export type ResultPolicyName = "auto" | "inline" | "page" | "compress" | "exact_ccr";

export interface ArtifactOptions {
  readonly strategy: "page" | "compress" | "exact_ccr";
  readonly maxInlineTokens: number;
  readonly recovery: "exact_ccr" | "none";
}

export type RequestedResult =
  | { readonly policy: ResultPolicyName }
  | { readonly policy: "artifact"; readonly artifact: ArtifactOptions };

export interface LockedResult {
  readonly requested: RequestedResult;
  /** What the runtime does with every result of this tool, decided at build time (docs/result-plans.md). */
  readonly plan: ResultPlan;
}

/** How big a result can get, in tokens of the pinned tokenizer, as derived from the output schema. */
export type SizeBound =
  | { readonly kind: "bounded"; readonly tokens: number }
  /** `path` is the JSON Pointer (into the output schema) of the part that makes it unbounded; `why` says how. */
  | { readonly kind: "unbounded"; readonly path: string; readonly why: string };

export type ResultStrategy = "inline" | "page" | "compress" | "exact_ccr";

/** A compression transform staged into the build folder and pinned by the hash of its bytes. */
export interface LockedTransform {
  readonly id: string;
  readonly version: number;
  readonly lossless: boolean;
  /** Self-contained ESM, relative to the project root. */
  readonly module: string;
  readonly sha256: string;
}

/** The tokenizer every count of this plan uses; the runtime refuses to count with another. */
export interface LockedTokenizer {
  readonly id: string;
  readonly version: string;
}

export interface ResultPlan {
  readonly strategy: ResultStrategy;
  /** One line for a reviewer: why this strategy, from which policy and bound. */
  readonly reason: string;
  readonly bound: SizeBound;
  /** A result of at most this many tokens enters context as is; null: the strategy always applies. */
  readonly inlineUpToTokens: number | null;
  /** Page size in tokens, for `page` and for paging recovered bytes; null for inline plans. */
  readonly pageTokens: number | null;
  /** The transform of a `compress` plan, else null. */
  readonly transform: LockedTransform | null;
  /** "exact_ccr": the exact serialised result is stored and verified before anything replaces it. */
  readonly recovery: "exact_ccr" | "none";
  /** null for inline plans, which never count. */
  readonly tokenizer: LockedTokenizer | null;
}
