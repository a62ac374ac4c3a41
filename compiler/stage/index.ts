import { realpathSync } from "node:fs";
import { sha256 } from "../../src/contract/hash.js";
import { describeThrown, error, type Diagnostic } from "../diagnostics.js";
import { packageRoot } from "../package-root.js";
import type { LockedExternal } from "../../src/contract/lock.js";
import type { CaveConfig, StagedModule, StageResult } from "../types.js";
import { findWorkspace } from "../workspaces.js";
import { assemble, type Assembled } from "./assemble.js";
import { bundleEntries, selectEntries, type Bundled } from "./bundle-strategy.js";
import { pinExternals, type ExternalPins } from "./externals.js";
import type { Roots } from "./placement.js";
import { sdkModulePath } from "./sdk-bundle.js";

export { bundleAhead, type Bundled, type Entry } from "./bundle-strategy.js";

/**
 * Stages every tool module as one self-contained ESM bundle (its staged source graph), with one esbuild
 * call for all of them (or none, when `ahead` bundled them all already: bundle-strategy.ts). Files are named by
 * canonical id (never by this machine's paths), every input file of each graph is hashed, and a graph that leads out
 * of the project is refused (assemble.ts).
 */
export async function stage(
  root: string,
  modules: readonly string[],
  config: CaveConfig,
  ahead?: Bundled,
  localExports: Readonly<Record<string, readonly string[]>> = {},
): Promise<StageResult> {
  const diagnostics: Diagnostic[] = [];
  let pins: ExternalPins | undefined;
  let assembled: Assembled | undefined;
  let sdkCode: string | undefined;
  try {
    const roots: Roots = { project: realpathSync(root), sdk: packageRoot(), workspace: findWorkspace(root) };
    const entries = selectEntries(roots, modules, config, diagnostics).map((entry) =>
      localExports[entry.module]?.length ? { ...entry, localExports: localExports[entry.module] } : entry,
    );
    if (entries.length === 0) return { modules: new Map(), sdk: null, inputFiles: new Map(), diagnostics };
    pins = pinExternals(roots.project, config.external ?? [], diagnostics);
    const { bundling, diagnostics: found } = await bundleEntries(roots, config, entries, ahead);
    diagnostics.push(...found);
    if (bundling) {
      sdkCode = bundling.sdk.code;
      assembled = await assemble(roots, root, config, bundling, pins);
      diagnostics.push(...assembled.diagnostics);
    }
  } catch (thrown) {
    diagnostics.push(
      error(
        "CAVE4001",
        `staging failed unexpectedly: ${describeThrown(thrown, root)}`,
        "This is a bug in cave build or esbuild; report it with the message.",
      ),
    );
  }
  const staged = assembled?.modules ?? new Map<string, StagedModule>();
  const externals = usedPins(staged, pins);
  const any = staged.size > 0 && assembled !== undefined && sdkCode !== undefined;
  return {
    modules: new Map([...staged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    sdk: any ? assembled!.sdk : null,
    sdkModule: any ? { path: sdkModulePath(config.outDir), code: sdkCode!, sha256: sha256(sdkCode!) } : undefined,
    ...(externals !== undefined ? { externals } : {}),
    assets: new Map([...(assembled?.assets ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    inputFiles: assembled?.inputFiles ?? new Map(),
    diagnostics: dedupe(diagnostics),
  };
}

/** The pins the staged modules use, for the lock (undefined when none does). */
function usedPins(
  staged: ReadonlyMap<string, StagedModule>,
  pins: ExternalPins | undefined,
): Record<string, LockedExternal> | undefined {
  const used = new Set([...staged.values()].flatMap((module) => module.externals ?? []));
  if (pins === undefined || used.size === 0) return undefined;
  return Object.fromEntries([...used].sort().map((path) => [path, pins.pins[path]!]));
}

function dedupe(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.code, d.file, d.line, d.column, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
