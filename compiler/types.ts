import type { IsolationSetting } from "../runtime/sandbox/isolation.js";
import type { LockedSandbox } from "../src/contract/lock.js";
import type { LockedExternal } from "../src/contract/lock.js";
import type { Effect } from "../src/contract/effects.js";
import type { RequestedResult } from "../src/contract/lock.js";
import type { Diagnostic } from "./diagnostics.js";

/** Resolved configuration (cave.config.json or the "cave" key of package.json, over the defaults). */
export interface CaveConfig {
  /** Globs of tool modules, relative to the root. */
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** The lock file, relative to the root. */
  readonly lock: string;
  /** The build folder, relative to the root. */
  readonly outDir: string;
  /** The durable-run journal setting ("sqlite:<path>", "file:<path>"): read by the runtime and `cave runs`, not by the build. */
  readonly journal?: string;
  /** Globs (relative to the root) of files every tool may read next to its code: staged and pinned like static references. */
  readonly assets?: readonly string[];
  /** The sandbox's isolation ("os", "auto", "node"): build-time evaluation and the runtime use it when neither an option nor CAVE_ISOLATION sets one. */
  readonly isolation?: IsolationSetting;
  /** Installed packages that are not bundled (native addons): imported from node_modules at run time, pinned by version and integrity. */
  readonly external?: readonly string[];
}

/** A build-folder file's content: text (bundles, validators, text assets) or bytes (binary assets). */
export type FileContent = string | Uint8Array;

export interface PassResult {
  readonly diagnostics: readonly Diagnostic[];
}

export interface DiscoverResult extends PassResult {
  readonly config: CaveConfig;
  /** Candidate modules: POSIX paths relative to the root, sorted. */
  readonly files: readonly string[];
}

/** The lock-relevant facts of a tool: what analysis reads statically and evaluation must confirm. */
export interface ToolFacts {
  readonly name: string;
  /** The module it is defined in (relative POSIX path) and its export name. */
  readonly module: string;
  readonly exportName: string;
  readonly description: string;
  readonly effect: Effect;
  readonly timeoutMs: number;
  readonly allowRepeat: boolean;
  readonly sandbox: LockedSandbox;
  /** Names of nested tools, sorted. */
  readonly nestedTools: readonly string[];
  readonly result: RequestedResult;
  readonly schemaSemanticsSHA256: string | null;
}

/** A tool as read from the source text, without running anything. */
export interface StaticTool extends ToolFacts {
  /** Where its tool() call is written (not `module` when a module of the build re-exports it from another file). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Whether the options declare input / output (their values are read by evaluate). */
  readonly declaresInput: boolean;
  readonly declaresOutput: boolean;
}

export interface StaticAgent {
  readonly name: string;
  readonly module: string;
  readonly exportName: string;
  /** Where its agent() call is written (not `module` when a module of the build re-exports it from another file). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly description: string | null;
  /** Tool names, sorted. */
  readonly tools: readonly string[];
}

export interface AnalyseResult extends PassResult {
  readonly tools: readonly StaticTool[];
  readonly agents: readonly StaticAgent[];
  /** Modules the lock imports at least one tool or agent from, sorted: these are staged. */
  readonly modules: readonly string[];
  /**
   * Module -> names of module-level tool consts the source does not export but the lock imports (a locked agent lists
   * them): the staged bundle exports each under its own name. Sorted.
   */
  readonly localExports: Readonly<Record<string, readonly string[]>>;
}

/** One staged source graph: a self-contained ESM bundle of a tool module. */
export interface StagedModule {
  readonly module: string;
  /** Where the bundle goes, relative to the root (inside the build folder). */
  readonly bundlePath: string;
  readonly code: string;
  readonly sha256: string;
  /** Every input file of the graph, by canonical path, with its sha256. */
  readonly files: Readonly<Record<string, string>>;
  /** Files its code reads next to itself (static references and config assets), in the build folder, sorted by path. */
  readonly assets?: readonly StagedAsset[];
  /** The install paths of the external packages its graph imports and of their dependencies (keys of StageResult.externals), sorted. */
  readonly externals?: readonly string[];
}

/** A file staged into the build folder's mirror of the project for tool code to read: text normalised, binary as is. */
export interface StagedAsset {
  /** Its path in the build folder (`<outDir>/bundles/<canonical id>`), relative to the root. */
  readonly path: string;
  readonly sha256: string;
}

/** The cave SDK every bundle embeds: listed once in the lock, named by one hash in each tool's graph. */
export interface StagedSdk {
  /** `cave@<version>`: the key of the SDK's entry in each tool's `source.files`. */
  readonly id: string;
  /** hashJson of `files`. */
  readonly sha256: string;
  readonly files: Readonly<Record<string, string>>;
  /** The SDK module every bundle imports, in the build folder, pinned by the sha256 of its bytes. */
  readonly module: { readonly path: string; readonly sha256: string };
}

export interface StageResult extends PassResult {
  readonly modules: ReadonlyMap<string, StagedModule>;
  readonly sdk: StagedSdk | null;
  /** The SDK module's path (relative to the root), bytes and sha256: written once to the build folder, imported by every bundle. */
  readonly sdkModule?: { readonly path: string; readonly code: string; readonly sha256: string } | undefined;
  /** Every staged asset's content and sha256, by its path in the build folder. */
  readonly assets?: ReadonlyMap<string, { readonly content: FileContent; readonly sha256: string }>;
  /** The external packages the staged modules import and their dependencies, by install path: the lock's `externals`. */
  readonly externals?: Readonly<Record<string, LockedExternal>>;
  /** Absolute path -> sha256 of every file any graph was built from (for the build cache only; never output). */
  readonly inputFiles: ReadonlyMap<string, string>;
}

/** A schema as read from the evaluated definition. */
export type EvaluatedSchema =
  | { readonly kind: "typebox"; readonly jsonSchema: Record<string, unknown> }
  | { readonly kind: "standard"; readonly vendor: string; readonly jsonSchema: Record<string, unknown> | null };

/** A tool as the evaluated bundle defines it (execute is never called). */
export interface EvaluatedTool extends ToolFacts {
  readonly input: EvaluatedSchema | null;
  readonly output: EvaluatedSchema | null;
}

export interface EvaluatedAgent {
  readonly module: string;
  readonly exportName: string;
  readonly name: string;
  readonly description: string | null;
  readonly tools: readonly string[];
}

export interface EvaluateResult extends PassResult {
  readonly tools: readonly EvaluatedTool[];
  readonly agents: readonly EvaluatedAgent[];
}

/** A precompiled Ajv standalone validator, one per distinct schema. */
export interface ValidatorModule {
  /** sha256 of the canonical JSON Schema it validates. */
  readonly schemaSha256: string;
  /** Relative to the root, inside the build folder. */
  readonly path: string;
  readonly code: string;
  readonly sha256: string;
}

export interface ValidatorsResult extends PassResult {
  /** By schema sha256. */
  readonly validators: ReadonlyMap<string, ValidatorModule>;
}
