import { sha256 } from "../../src/contract/hash.js";
import type { Diagnostic } from "../diagnostics.js";
import { lockfileHash } from "../stage/externals.js";
import type { CaveConfig } from "../types.js";
import { compilerIdentity } from "./identity.js";
import { cacheKey, lookup, store, type CacheHit } from "./index.js";
import { hashInputs } from "./inputs.js";
import { openPassCaches, type PassCaches } from "./passes.js";
import { packageRoot } from "../package-root.js";

/** Which caches a build uses: the whole-build cache (index.ts), and the per-pass caches read, or read and recorded. */
export interface CacheUse {
  readonly whole: boolean;
  readonly passes: "off" | "read" | "read-write";
}

/** The caches of one build, opened once discover has the configuration and the modules. */
export interface BuildCaches {
  /** The per-pass caches, opened only on a whole-build miss (reading them costs a no-change rebuild time). */
  openPasses(): PassCaches;
  /** The recorded output of this very build, when the whole-build cache is used and has it. */
  lookup(): CacheHit | undefined;
  /** Records a written build for the next one (only when both caches are recorded). */
  store(output: {
    readonly lockText: string;
    readonly hashes: Readonly<Record<string, string>>;
    readonly inputFiles: ReadonlyMap<string, string>;
    readonly diagnostics: readonly Diagnostic[];
  }): void;
}

export function openBuildCaches(
  root: string,
  config: CaveConfig,
  files: readonly string[],
  evaluateTimeoutMs: number | undefined,
  use: CacheUse,
): BuildCaches {
  const identity = compilerIdentity(packageRoot());
  // External packages are pinned from package-lock.json, which no pass reads as an input file.
  const lockfile = use.whole && (config.external ?? []).length > 0 ? lockfileHash(root) : null;
  const key = use.whole
    ? cacheKey(identity, { root, config, evaluateTimeoutMs: evaluateTimeoutMs ?? null, lockfile }, files)
    : "";
  const recording = use.whole && use.passes === "read-write";
  return {
    openPasses: () =>
      openPassCaches(root, { identity, write: use.passes === "read-write", enabled: use.passes !== "off" }),
    lookup: () => (use.whole ? lookup(root, key, config.outDir) : undefined),
    store(output) {
      if (!recording) return;
      const warnings = output.diagnostics.filter((d) => d.severity === "warning");
      store(root, {
        key,
        inputs: hashInputs(root, files, output.inputFiles),
        lockPath: config.lock,
        lockSha256: sha256(output.lockText),
        outputs: output.hashes,
        diagnostics: warnings,
      });
    },
  };
}
