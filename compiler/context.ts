import type { CaveLock } from "../src/contract/lock.js";
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import { beginEmit, type FolderFiles, type PendingEmit } from "./emit/index.js";
import type { PassCaches } from "./cache/passes.js";
import type { CaveConfig } from "./types.js";

/** What one build is asked to do; build(), `cave build --check`/`--frozen` and run() differ only here. */
export interface BuildSettings {
  /** Write cave.lock and the build folder; otherwise everything stays in memory. */
  readonly write: boolean;
  /**
   * Called with the finished lock before anything is written: a writing build writes only if it answers true (`cave
   * build --frozen`: only when the lock stays byte-identical). If it throws, the build stops with nothing written.
   */
  readonly approve: ((lock: CaveLock, lockText: string, config: CaveConfig) => boolean | Promise<boolean>) | undefined;
  /** Hard limit for importing one staged bundle, in ms (the evaluate pass's default when undefined). */
  readonly evaluateTimeoutMs: number | undefined;
  /**
   * An ordinary run's lock, held in memory for one call (run()): an opaque validator without schemaSemanticsSHA256 is
   * allowed, its staged bundle's hash standing in for this run only.
   */
  readonly bundleHashStandsIn: boolean;
}

/** Everything a pass may read besides its input, and where it puts what it finds. */
export interface BuildContext {
  readonly root: string;
  readonly config: CaveConfig;
  readonly settings: BuildSettings;
  /** What passes computed before from unchanged content (cache/passes.ts). */
  readonly caches: PassCaches;
  /** Every diagnostic so far, in the order the passes reported them. */
  readonly diagnostics: readonly Diagnostic[];
  /** Adds a pass's diagnostics; true when the build has an error and must stop. */
  report(diagnostics: readonly Diagnostic[]): boolean;
  /** Hands files the build folder will hold to a writing build's emit, which starts writing them aside. */
  emitAhead(files: FolderFiles): void;
  /** Ends a writing build's emit (emit/index.ts, finish()): the folder and the lock swapped in together. */
  finishEmit(output: FolderFiles & { readonly lockText: string }): Promise<Diagnostic[]>;
  /** Ends the build: an emit not finished is given up (what it wrote aside is removed), the pass caches are saved. */
  close(): Promise<void>;
}

export function createContext(
  root: string,
  config: CaveConfig,
  settings: BuildSettings,
  caches: PassCaches,
  diagnostics: readonly Diagnostic[],
): BuildContext {
  const found = [...diagnostics];
  let emitting: PendingEmit | undefined;
  // Begun on the first files a writing build knows (the staged bundles), so that it writes while evaluation runs.
  const emitter = () => (emitting ??= beginEmit(root, config));
  return {
    root,
    config,
    settings,
    caches,
    diagnostics: found,
    report(more) {
      found.push(...more);
      return hasErrors(found);
    },
    emitAhead(files) {
      if (settings.write) emitter().ahead(files);
    },
    finishEmit: (output) => emitter().finish(output),
    async close() {
      try {
        await emitting?.abort();
      } finally {
        caches.save();
      }
    },
  };
}
