import type { CaveLock } from "../src/contract/lock.js";
import type { Diagnostic } from "./diagnostics.js";
import type { CaveConfig, FileContent } from "./types.js";

/** What build() takes (checked by checkBuildOptions, options.ts) and gives. */
export interface BuildOptions {
  /** The project root (default: the current directory). */
  readonly root?: string;
  /** Write cave.lock and the build folder (default true). With false, everything is built in memory only. */
  readonly write?: boolean;
  /** Overrides of cave.config.json keys (include, exclude, lock, outDir). */
  readonly config?: Partial<CaveConfig>;
  /** Hard limit for importing the staged bundles at build time, in ms (default 10000). */
  readonly evaluateTimeoutMs?: number;
  /** Reuse a previous identical build (default true; see docs/decisions.md, "The build cache"). */
  readonly cache?: boolean;
  /**
   * Called with the new lock before a writing build writes anything (the CLI computes its review diff here): if it
   * throws, the build stops with nothing written, so no summary can fail after the lock has changed.
   */
  readonly review?: (lock: CaveLock) => void;
}

export interface BuildResult {
  /** No error diagnostics (warnings may exist). */
  readonly ok: boolean;
  /** Sorted by file, line, column. */
  readonly diagnostics: readonly Diagnostic[];
  readonly config: CaveConfig | null;
  readonly lock: CaveLock | null;
  /** The exact bytes of cave.lock. */
  readonly lockText: string | null;
  /** Build folder files by path relative to the root: text, or bytes for a binary asset. */
  readonly files: ReadonlyMap<string, FileContent>;
  /** Whether anything was written. */
  readonly written: boolean;
  /** Whether the output was taken from the build cache (the same bytes a full build would produce). */
  readonly cached: boolean;
}
