import { resolve } from "node:path";
import type { CaveLock } from "../src/contract/lock.js";
import { parseJsonDictionaries } from "../src/contract/dictionary.js";
import type { BuildOptions, BuildResult } from "./build-api.js";
import { openBuildCaches, type CacheUse } from "./cache/for-build.js";
import { createContext, type BuildSettings } from "./context.js";
import { hasErrors, sortDiagnostics, type Diagnostic } from "./diagnostics.js";
import { discover } from "./discover/index.js";
import { checkBuildOptions } from "./options.js";
import { analyse, compileValidators, emit, evaluate, plan, stage } from "./passes.js";
import type { CaveConfig } from "./types.js";

export type { BuildOptions, BuildResult } from "./build-api.js";

/** `cave build`: discover → analyse → stage → evaluate → validators → plan → emit. Nothing is written when there are errors. */
export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const optionProblems = checkBuildOptions(options);
  if (optionProblems.length > 0) return failed(optionProblems, null);
  const { write = true, cache = true, review } = options;
  const approve = review && ((lock: CaveLock) => (review(lock), true));
  const settings = { write, approve, evaluateTimeoutMs: options.evaluateTimeoutMs, bundleHashStandsIn: false };
  return compile({
    root: resolve(options.root ?? process.cwd()),
    config: options.config,
    settings,
    cache: { whole: cache, passes: cache ? (write ? "read-write" : "read") : "off" },
  });
}

/** What compile() is asked for: build() above, `cave build --check`/`--frozen` (cli/commands/build.ts) and run(). */
export interface BuildRequest {
  readonly root: string;
  /** Overrides of cave.config.json keys. */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
  readonly settings: BuildSettings;
  readonly cache: CacheUse;
  /** Which discovered modules to build (run(): its entry and the modules of its nested tools); default all of them. */
  readonly select?: (files: readonly string[], config: CaveConfig) => readonly string[];
}

/**
 * The one sequence of a build. Each pass adds its diagnostics; the build stops after any pass that reported an error,
 * and then writes nothing. A whole-build cache hit answers before any pass loads.
 */
export async function compile(request: BuildRequest): Promise<BuildResult> {
  const { root, settings } = request;
  const discovered = await discover(root, request.config);
  if (hasErrors(discovered.diagnostics)) return failed(discovered.diagnostics, discovered.config);
  const { config } = discovered;
  const files = request.select?.(discovered.files, config) ?? discovered.files;
  const caches = openBuildCaches(root, config, files, settings.evaluateTimeoutMs, request.cache);
  const hit = caches.lookup();
  if (hit) {
    const lock = parseJsonDictionaries(hit.lockText) as CaveLock;
    await settings.approve?.(lock, hit.lockText, config);
    return {
      ok: true,
      diagnostics: sortDiagnostics([...discovered.diagnostics, ...hit.diagnostics]),
      config,
      lock,
      lockText: hit.lockText,
      files: hit.files,
      written: false,
      cached: true,
    };
  }

  // A miss: each pass still reuses what it computed before from unchanged content (cache/passes.ts). Whatever the
  // outcome, a writing build keeps what its passes computed, so fixing one module does not redo the others.
  const ctx = createContext(root, config, settings, caches.openPasses(), discovered.diagnostics);
  const stop = () => failed(ctx.diagnostics, config);
  try {
    const analysed = await analyse({ files }, ctx);
    if (ctx.report(analysed.diagnostics)) return stop();
    const staged = await stage({ analysed }, ctx);
    if (ctx.report(staged.diagnostics)) return stop();
    const evaluated = await evaluate({ staged, analysed }, ctx);
    if (ctx.report(evaluated.diagnostics)) return stop();
    const validated = await compileValidators({ evaluated, analysed }, ctx);
    if (ctx.report(validated.diagnostics)) return stop();
    const { lock, diagnostics } = plan({ analysed, staged, evaluated, validated }, ctx);
    if (ctx.report(diagnostics) || lock === null) return stop();
    const emitted = await emit({ lock, staged, validated }, ctx);
    const ok = !ctx.report(emitted.diagnostics);
    if (emitted.written) caches.store({ ...emitted, inputFiles: staged.inputFiles, diagnostics: ctx.diagnostics });
    return {
      ok,
      diagnostics: sortDiagnostics(ctx.diagnostics),
      config,
      lock,
      lockText: emitted.lockText,
      files: emitted.files,
      written: emitted.written,
      cached: false,
    };
  } finally {
    await ctx.close();
  }
}

function failed(diagnostics: readonly Diagnostic[], config: CaveConfig | null): BuildResult {
  return {
    ok: false,
    diagnostics: sortDiagnostics(diagnostics),
    config,
    lock: null,
    lockText: null,
    files: new Map(),
    written: false,
    cached: false,
  };
}
