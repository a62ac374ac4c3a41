import type { CaveLock } from "../src/contract/lock.js";
import {
  buildFolderFiles,
  buildFolderHashes,
  schemasToPrecompile,
  stagedBundles,
  validatorModules,
} from "./build-parts.js";
import type { BuildContext } from "./context.js";
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import { renderLock } from "./emit/render.js";
import { withBundleHashSemantics } from "./evaluate/bundle-hash-semantics.js";
import { analyseWhileBundling } from "./schedule.js";
import type { Bundled } from "./stage/index.js";
import type { AnalyseResult, EvaluateResult, FileContent, PassResult, StageResult, ValidatorsResult } from "./types.js";

/**
 * The passes of a build after discover, each as `(input, ctx) => output`, in the order build.ts runs them. Each
 * returns its diagnostics with its output; build.ts reports them and stops at the first error. The work is in each
 * pass's folder; what is here is how a build feeds it: the context's settings, caches and emit.
 */

/** What analysis read, and what esbuild bundled ahead meanwhile (for stage to keep or redo). */
export type Analysed = AnalyseResult & { readonly ahead: Promise<Bundled | undefined> };

/** 2. Analysis (analyse/): the tools and agents read statically, and the modules to stage. */
export async function analyse(input: { readonly files: readonly string[] }, ctx: BuildContext): Promise<Analysed> {
  const { analysed, ahead } = await analyseWhileBundling(input.files, ctx);
  return { ...analysed, ahead };
}

/** 3. Staging (stage/): one bundle per module; a writing build starts writing the bundles of tools aside. */
export async function stage(input: { readonly analysed: Analysed }, ctx: BuildContext): Promise<StageResult> {
  const { analysed } = input;
  const { stage: stageModules } = await import("./stage/index.js");
  const staged = await stageModules(
    ctx.root,
    analysed.modules,
    ctx.config,
    await analysed.ahead,
    analysed.localExports,
  );
  if (!hasErrors(staged.diagnostics))
    ctx.emitAhead(
      stagedBundles(
        staged,
        analysed.tools.map((tool) => tool.module),
      ),
    );
  return staged;
}

/** 4. Evaluation (evaluate/): each definition as its bundle builds it, cross-checked against analysis. */
export async function evaluate(
  input: { readonly staged: StageResult; readonly analysed: AnalyseResult },
  ctx: BuildContext,
): Promise<EvaluateResult> {
  const { evaluate: evaluateBundles } = await import("./evaluate/index.js");
  const evaluated = await evaluateBundles(ctx.root, input.staged, input.analysed, {
    timeoutMs: ctx.settings.evaluateTimeoutMs,
    cache: ctx.caches.evaluate,
    isolation: ctx.config.isolation,
  });
  return ctx.settings.bundleHashStandsIn ? withBundleHashSemantics(evaluated, input.staged) : evaluated;
}

/** 5. Validators (validators/): one precompiled module per distinct schema, written aside by a writing build. */
export async function compileValidators(
  input: { readonly evaluated: EvaluateResult; readonly analysed: AnalyseResult },
  ctx: BuildContext,
): Promise<ValidatorsResult> {
  const { compileValidators: compile } = await import("./validators/pass.js");
  const validated = await compile(ctx.root, ctx.config.outDir, schemasToPrecompile(input.evaluated, input.analysed), {
    cache: ctx.caches.validators,
  });
  if (!hasErrors(validated.diagnostics)) ctx.emitAhead(validatorModules(validated));
  return validated;
}

/** 6. Planning (plan/): the lock, result policies included, or the policies that cannot be planned. */
export { plan } from "./plan/index.js";

export interface Emitted extends PassResult {
  readonly lockText: string;
  /** Build folder files by path relative to the root. */
  readonly files: ReadonlyMap<string, FileContent>;
  /** Their sha256, by the same paths (for emit and the build cache). */
  readonly hashes: Readonly<Record<string, string>>;
  readonly written: boolean;
}

/** 7. Emit (emit/): the lock's bytes and the build folder; a writing build swaps both in, if the settings approve. */
export async function emit(
  input: { readonly lock: CaveLock; readonly staged: StageResult; readonly validated: ValidatorsResult },
  ctx: BuildContext,
): Promise<Emitted> {
  const { lock, staged, validated } = input;
  const lockText = renderLock(lock);
  const files = buildFolderFiles(staged, validated, lock);
  // Bundles and validators were hashed when they were made: emit keeps unchanged files of the previous build
  // folder by that (a hard link, after checking their bytes), and the cache records it.
  const hashes = buildFolderHashes(files, staged, validated);
  const approved = (await ctx.settings.approve?.(lock, lockText, ctx.config)) ?? true;
  if (!ctx.settings.write || !approved) return { lockText, files, hashes, written: false, diagnostics: [] };
  const diagnostics: Diagnostic[] = await ctx.finishEmit({ lockText, files, hashes });
  return { lockText, files, hashes, written: diagnostics.length === 0, diagnostics };
}
