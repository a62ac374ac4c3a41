import { resolve } from "node:path";
import type { CaveLock } from "../src/contract/lock.js";
import { sha256 } from "../src/contract/hash.js";
import { parseJsonDictionaries } from "../src/contract/dictionary.js";
import { discover } from "./discover/index.js";
import { plan } from "./plan/index.js";
import { checkResults } from "./results/index.js";
import { beginEmit } from "./emit/index.js";
import { renderLock } from "./emit/render.js";
import { buildFolderFiles, buildFolderHashes, schemasToPrecompile, stagedBundles, validatorModules } from "./build-parts.js";
import { hasErrors, sortDiagnostics, type Diagnostic } from "./diagnostics.js";
import type { CaveConfig, FileContent } from "./types.js";
import { checkBuildOptions } from "./options.js";
import { cacheKey, lookup, store } from "./cache/index.js";
import { compilerIdentity } from "./cache/identity.js";
import { hashInputs } from "./cache/inputs.js";
import { openPassCaches, type PassCaches } from "./cache/passes.js";
import { packageRoot } from "./package-root.js";
import { lockfileHash } from "./stage/externals.js";

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

/** `cave build`: discover → analyse → stage → evaluate → validators → plan → emit. Nothing is written when there are errors. */
export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const optionProblems = checkBuildOptions(options);
  if (optionProblems.length > 0) return failed(optionProblems, null);
  const root = resolve(options.root ?? process.cwd());

  const discovered = await discover(root, options.config as Record<string, unknown> | undefined);
  const diagnostics: Diagnostic[] = [...discovered.diagnostics];
  if (hasErrors(diagnostics)) return failed(diagnostics, discovered.config);
  const { config } = discovered;
  const write = options.write ?? true;
  const useCache = options.cache ?? true;
  const identity = compilerIdentity(packageRoot());
  // External packages are pinned from package-lock.json, which no pass reads as an input file.
  const lockfile = (config.external ?? []).length > 0 ? lockfileHash(root) : null;
  const key = cacheKey(identity, { root, config, evaluateTimeoutMs: options.evaluateTimeoutMs ?? null, lockfile }, discovered.files);
  const hit = useCache ? lookup(root, key, config.outDir) : undefined;
  if (hit) {
    const all = sortDiagnostics([...diagnostics, ...hit.diagnostics]);
    const lock = parseJsonDictionaries(hit.lockText) as CaveLock;
    options.review?.(lock);
    return { ok: true, diagnostics: all, config, lock, lockText: hit.lockText, files: hit.files, written: false, cached: true };
  }

  // A miss: each pass still reuses what it computed before from unchanged content (cache/passes.ts). Whatever the
  // outcome, a writing build keeps what its passes computed, so fixing one module does not redo the others.
  const caches = openPassCaches(root, { identity, write, enabled: useCache });
  try {
    return await runPasses(root, config, diagnostics, caches, { key, write, useCache, files: discovered.files, evaluateTimeoutMs: options.evaluateTimeoutMs, review: options.review });
  } finally {
    caches.save();
  }
}

interface PassSettings {
  readonly key: string;
  readonly write: boolean;
  readonly useCache: boolean;
  readonly files: readonly string[];
  readonly evaluateTimeoutMs: number | undefined;
  readonly review: ((lock: CaveLock) => void) | undefined;
}

async function runPasses(root: string, config: CaveConfig, diagnostics: Diagnostic[], caches: PassCaches, settings: PassSettings): Promise<BuildResult> {
  const { key, write, useCache } = settings;
  // The passes load only on a cache miss: ts-morph alone takes longer to import than a whole no-change rebuild.
  // Analysis runs on a worker thread while esbuild already bundles the modules that mention "cave" (all those
  // analysis can name, perhaps a few more); stage then keeps what analysis names, or bundles them itself. The
  // analysis worker starts first, before the other passes load: it is the longer of the two.
  const { analyseOffThread } = await import("./analyse/off-thread.js");
  const analysing = analyseOffThread(root, settings.files);
  const [{ mentioningCave }, { bundleAhead, stage }, { evaluate }, { validators }] = await Promise.all([
    import("./analyse/candidates.js"),
    import("./stage/index.js"),
    import("./evaluate/index.js"),
    import("./validators/pass.js"),
  ]);
  const ahead = bundleAhead(root, await mentioningCave(root, settings.files), config);
  const analysed = await analysing;
  diagnostics.push(...analysed.diagnostics);
  if (hasErrors(diagnostics)) return failed(diagnostics, config);

  const staged = await stage(root, analysed.modules, config, await ahead, analysed.localExports);
  diagnostics.push(...staged.diagnostics);
  if (hasErrors(diagnostics)) return failed(diagnostics, config);

  // From here a writing build writes its build folder aside as the files become known (a worker thread creates them
  // while this thread evaluates and plans); finish() swaps exactly the final files in with the lock. A build that
  // stops before removes what was written aside (abort() does nothing once finish() ran).
  const emitting = write ? beginEmit(root, config) : undefined;
  try {
    emitting?.ahead(stagedBundles(staged, analysed.tools.map((tool) => tool.module)));

    const evaluated = await evaluate(root, staged, analysed, { timeoutMs: settings.evaluateTimeoutMs, cache: caches.evaluate, isolation: config.isolation });
    diagnostics.push(...evaluated.diagnostics);
    if (hasErrors(diagnostics)) return failed(diagnostics, config);

    const validated = await validators(root, config.outDir, schemasToPrecompile(evaluated, analysed), { cache: caches.validators });
    diagnostics.push(...validated.diagnostics);
    if (hasErrors(diagnostics)) return failed(diagnostics, config);
    emitting?.ahead(validatorModules(validated));

    diagnostics.push(...checkResults(evaluated, analysed, config.outDir));
    if (hasErrors(diagnostics)) return failed(diagnostics, config);

    const lock = plan(config, evaluated, staged, validated);
    const lockText = renderLock(lock);
    const files = buildFolderFiles(staged, validated, lock);
    // Bundles and validators were hashed when they were made: emit keeps unchanged files of the previous build
    // folder by that (a hard link, after checking their bytes), and the cache records it.
    const hashes = buildFolderHashes(files, staged, validated);

    settings.review?.(lock);
    if (emitting) diagnostics.push(...(await emitting.finish({ lockText, files, hashes })));
    const ok = !hasErrors(diagnostics);
    if (write && ok && useCache) {
      const inputs = hashInputs(root, settings.files, staged.inputFiles);
      store(root, { key, inputs, lockPath: config.lock, lockSha256: sha256(lockText), outputs: hashes, diagnostics: diagnostics.filter((d) => d.severity === "warning") });
    }
    return { ok, diagnostics: sortDiagnostics(diagnostics), config, lock, lockText, files, written: write && ok, cached: false };
  } finally {
    await emitting?.abort();
  }
}

function failed(diagnostics: readonly Diagnostic[], config: CaveConfig | null): BuildResult {
  return { ok: false, diagnostics: sortDiagnostics(diagnostics), config, lock: null, lockText: null, files: new Map(), written: false, cached: false };
}
