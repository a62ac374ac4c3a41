import { realpathSync } from "node:fs";
import { join, posix } from "node:path";
import * as esbuild from "esbuild";
import { error, type Diagnostic } from "../diagnostics.js";
import { packageRoot, sdkEntry } from "../package-root.js";
import type { CaveConfig } from "../types.js";
import { findWorkspace } from "../workspaces.js";
import { bundlePathFor, withoutExtension } from "./bundle-file.js";
import { esbuildExternals } from "./externals.js";
import { graphInputs } from "./graph.js";
import { localExportsPlugin } from "./local-exports.js";
import { toDiagnostics } from "./messages.js";
import { place, type Roots } from "./placement.js";
import { fromPrettyPath, stagePlugin } from "./plugin.js";
import { bundleSdk, type SdkBundle } from "./sdk-bundle.js";

/**
 * How staging gets esbuild's output for its modules, the cheapest way that gives the same bundles: what bundleAhead
 * already built beside analysis, else one clean build, else a guarded build that refuses what leads outside the
 * project and sets broken modules aside (buildEntries). assemble.ts turns the output into staged modules.
 */

export interface Entry {
  readonly module: string;
  readonly bundlePath: string;
  /** esbuild's output name (the module without its extension), relative to the bundles folder. */
  readonly out: string;
  /** Module-level consts the source does not export but the lock imports (analysis' localExports). */
  readonly localExports?: readonly string[];
}

export type Built = esbuild.BuildResult<{ write: false; metafile: true }>;

/**
 * What one clean esbuild call over some modules produced (bundleAhead): enough to stage any of them without
 * bundling again, since each entry's output depends only on its own graph.
 */
export interface Bundled {
  readonly project: string;
  readonly sdk: SdkBundle;
  readonly built: Built;
  readonly entries: readonly Entry[];
}

/** esbuild's output for some entries (perhaps fewer than asked: those a guarded build set aside are left out), and the SDK's bundle. */
export interface Bundling {
  readonly built: Built;
  readonly entries: readonly Entry[];
  readonly sdk: SdkBundle;
}

/**
 * Bundles the entries, reusing a build ahead when it covers them. Undefined when nothing could be bundled (the
 * diagnostics say why). When the SDK cannot be bundled, what the modules' build found is dropped, as if it had not run.
 */
export async function bundleEntries(
  roots: Roots,
  config: CaveConfig,
  entries: readonly Entry[],
  ahead: Bundled | undefined,
): Promise<{ readonly bundling: Bundling | undefined; readonly diagnostics: Diagnostic[] }> {
  const reusable = ahead && covers(ahead, roots, entries) ? ownPart(ahead, entries, config) : undefined;
  if (ahead && reusable) return { bundling: { built: reusable, entries, sdk: ahead.sdk }, diagnostics: [] };
  // The SDK is bundled beside the modules (they import it as an external module).
  const entriesDiagnostics: Diagnostic[] = [];
  const [{ sdk, diagnostics }, { built, entries: builtEntries }] = await Promise.all([
    bundleSdk(roots, sdkEntry()),
    buildEntries(roots, config, [...entries], entriesDiagnostics),
  ]);
  if (!sdk) return { bundling: undefined, diagnostics: [...diagnostics] };
  return {
    bundling: built ? { built, entries: builtEntries, sdk } : undefined,
    diagnostics: [...diagnostics, ...entriesDiagnostics],
  };
}

/**
 * Bundles candidate modules before analysis has said which modules to stage (schedule.ts runs it beside analysis):
 * the modules that mention "cave", a superset of those analysis will name. Only a clean build is kept (the SDK
 * bundled, no error, every file read inside the project, the SDK or node_modules); otherwise undefined, and stage
 * bundles the modules itself. Never throws.
 */
export async function bundleAhead(
  root: string,
  candidates: readonly string[],
  config: CaveConfig,
): Promise<Bundled | undefined> {
  try {
    const roots: Roots = { project: realpathSync(root), sdk: packageRoot(), workspace: findWorkspace(root) };
    const entries = selectEntries(roots, candidates, config, []);
    if (entries.length === 0) return undefined;
    const [{ sdk }, built] = await Promise.all([bundleSdk(roots, sdkEntry()), buildClean(roots, config, entries)]);
    return sdk && built ? { project: roots.project, sdk, built, entries } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an earlier build bundled every one of these entries, for this project, with the same output names. */
function covers(ahead: Bundled, roots: Roots, entries: readonly Entry[]): boolean {
  const built = new Map(ahead.entries.map((entry) => [entry.module, entry]));
  // A build ahead ran before analysis named the consts to export: a module that needs one is bundled again.
  if (entries.some((entry) => entry.localExports !== undefined)) return false;
  return (
    ahead.project === roots.project &&
    entries.every(
      (entry) => built.get(entry.module)?.out === entry.out && built.get(entry.module)?.bundlePath === entry.bundlePath,
    )
  );
}

/**
 * The part of a build ahead that belongs to these entries: its warnings without those located in files only other
 * modules read. A warning located in a file that is not an input (a package.json, a tsconfig) cannot be told apart:
 * then undefined, and stage bundles the entries itself.
 */
function ownPart(ahead: Bundled, entries: readonly Entry[], config: CaveConfig): Built | undefined {
  const { metafile } = ahead.built;
  const used = new Set(
    entries.flatMap((entry) => graphInputs(metafile, entryPointOf(ahead.built, ahead.project, config, entry))),
  );
  const warnings: esbuild.Message[] = [];
  for (const message of ahead.built.warnings) {
    if (!message.location) warnings.push(message);
    else if (used.has(inputKey(message.location))) warnings.push(message);
    else if (!Object.hasOwn(metafile.inputs, inputKey(message.location))) return undefined;
  }
  return { ...ahead.built, warnings };
}

/** The metafile's entry point of an entry's output (esbuild keys outputs by their path relative to the working directory). */
export function entryPointOf(built: Built, project: string, config: CaveConfig, entry: Entry): string {
  const outputPath = join(project, config.outDir, "bundles", `${entry.out}.mjs`);
  const outputKey = posix.relative(project.split("\\").join("/"), outputPath.split("\\").join("/"));
  const entryPoint = built.metafile.outputs[outputKey]?.entryPoint;
  if (entryPoint === undefined) throw new Error(`esbuild produced no bundle for ${entry.module}`);
  return entryPoint;
}

/** The modules to bundle, each with its bundle's path; a module that cannot be staged is a diagnostic. */
export function selectEntries(
  roots: Roots,
  modules: readonly string[],
  config: CaveConfig,
  diagnostics: Diagnostic[],
): Entry[] {
  const candidates: Entry[] = [];
  for (const module of [...new Set(modules)].sort()) {
    let real: string | undefined;
    try {
      real = realpathSync(join(roots.project, module));
    } catch {
      real = undefined; // a missing module is reported by esbuild, with its own wording
    }
    if (real !== undefined && place(real, roots).kind === "outside") {
      diagnostics.push(
        error(
          "CAVE4002",
          `tool module ${module} is a symlink to a file outside the project root`,
          "Staged bundles may only hold project files, the cave SDK and installed packages. Replace the symlink with the file itself.",
          { file: module },
        ),
      );
      continue;
    }
    candidates.push({ module, bundlePath: bundlePathFor(config.outDir, module), out: withoutExtension(module) });
  }
  const byOut = new Map<string, Entry[]>();
  for (const entry of candidates) byOut.set(entry.out, [...(byOut.get(entry.out) ?? []), entry]);
  const entries: Entry[] = [];
  for (const group of byOut.values()) {
    if (group.length === 1) {
      entries.push(group[0] as Entry);
      continue;
    }
    for (const entry of group) {
      const others = group.filter((other) => other !== entry).map((other) => other.module);
      diagnostics.push(
        error(
          "CAVE4003",
          `tool modules ${[entry.module, ...others].join(" and ")} would both be staged as ${entry.bundlePath}`,
          "Rename one of them: modules may not differ only by their extension.",
          { file: entry.module },
        ),
      );
    }
  }
  return entries;
}

/**
 * One esbuild call for all entries. The first attempt leaves imports to esbuild's own resolver: guarding every
 * import from a plugin costs a round trip to this process per import (about 2 s of 1,000 modules' 2.5 s). When
 * that build succeeds and every file it read is inside the project, the SDK or node_modules, it is exactly what
 * the guarded build would produce (the guard returns nothing for such imports, leaving them to esbuild's resolver).
 * Otherwise the guarded build runs: it refuses what leads outside at the import, and sets aside, after a failure, the
 * modules whose own file has an error and builds the rest again (at most a few times), so one broken module does
 * not hide the diagnostics of the others.
 */
async function buildEntries(
  roots: Roots,
  config: CaveConfig,
  entries: Entry[],
  diagnostics: Diagnostic[],
): Promise<{ built: Built | undefined; entries: Entry[] }> {
  const clean = await buildClean(roots, config, entries);
  if (clean) return { built: clean, entries };
  let remaining = entries;
  for (let attempt = 0; attempt < 3 && remaining.length > 0; attempt++) {
    try {
      const built = await esbuild.build(buildOptions(roots, config, remaining, stagePlugin(roots, { guard: true })));
      return { built, entries: remaining };
    } catch (thrown) {
      const failure = thrown as esbuild.BuildFailure;
      if (!Array.isArray(failure.errors)) throw thrown;
      const found = toDiagnostics(failure.errors, "error", roots.project, roots);
      diagnostics.push(...found);
      const broken = new Set(found.map((d) => d.file));
      const next = remaining.filter((entry) => !broken.has(entry.module));
      if (next.length === remaining.length) break;
      remaining = next;
    }
  }
  return { built: undefined, entries: [] };
}

/** The unguarded build, when it succeeds and reads nothing outside the project, the SDK and node_modules. */
async function buildClean(roots: Roots, config: CaveConfig, entries: readonly Entry[]): Promise<Built | undefined> {
  try {
    const built = await esbuild.build(buildOptions(roots, config, entries, stagePlugin(roots, { guard: false })));
    const inside = Object.keys(built.metafile.inputs).every(
      (key) => place(fromPrettyPath(roots.project, key), roots).kind !== "outside",
    );
    return inside ? built : undefined;
  } catch (thrown) {
    if (!Array.isArray((thrown as esbuild.BuildFailure).errors)) throw thrown;
    return undefined;
  }
}

export function buildOptions(roots: Roots, config: CaveConfig, entries: readonly Entry[], plugin: esbuild.Plugin) {
  const local = localExportsPlugin(
    roots.project,
    Object.fromEntries(entries.map((entry) => [entry.module, entry.localExports ?? []])),
  );
  return {
    entryPoints: entries.map((entry) => ({ in: `./${entry.module}`, out: entry.out })),
    absWorkingDir: roots.project,
    outdir: join(roots.project, config.outDir, "bundles"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: false,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    metafile: true,
    logLevel: "silent",
    // A map per bundle, made inline by stage (source-map.ts): stacks name the original file and line.
    sourcemap: "external",
    sourcesContent: false,
    plugins: local ? [local, plugin] : [plugin],
    // External packages stay imports by name, loaded from node_modules at run time (externals.ts).
    external: esbuildExternals(config.external ?? []),
  } satisfies esbuild.BuildOptions;
}

/** The metafile's key of the file a message is located in (esbuild names files of other namespaces `<namespace>:<path>`). */
function inputKey(location: esbuild.Location): string {
  return location.namespace === "file" || location.namespace === ""
    ? location.file
    : `${location.namespace}:${location.file}`;
}
