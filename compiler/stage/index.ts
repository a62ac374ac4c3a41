import { realpathSync } from "node:fs";
import { join, posix } from "node:path";
import * as esbuild from "esbuild";
import { hashJson, sha256 } from "../../src/contract/hash.js";
import { describeThrown, error, type Diagnostic } from "../diagnostics.js";
import { packageRoot, sdkEntry, sdkGraphId } from "../package-root.js";
import type { LockedExternal } from "../../src/contract/lock.js";
import type { CaveConfig, FileContent, StagedAsset, StagedModule, StagedSdk, StageResult } from "../types.js";
import { assetContent, configAssets, folderReference, mirrorPath } from "./assets.js";
import { LOCATED_DEFINE, locatePlugin, locatingFiles, staticAssets, type LocatingFile } from "./locate.js";
import { bundlePathFor, finishBundle, mirrorBase, withoutExtension } from "./bundle-file.js";
import { assignCanonicalIds } from "./canonical-ids.js";
import { FileHasher } from "./file-hasher.js";
import { graphExternalImports, graphInputs } from "./graph.js";
import { esbuildExternals, externalOf, pinExternals, type ExternalPins } from "./externals.js";
import { toDiagnostics } from "./messages.js";
import { place, type Roots } from "./placement.js";
import { fromPrettyPath, OUTSIDE_IMPORT, SDK_PLACEHOLDER, stagePlugin } from "./plugin.js";
import { leftoverPaths, rewritePathLines } from "./rewrite.js";
import { localExportsPlugin } from "./local-exports.js";
import { findWorkspace } from "../workspaces.js";
import { inlineSourceMap } from "./source-map.js";
import { bundleSdk, sdkModulePath, sdkSpecifier, type SdkBundle } from "./sdk-bundle.js";

export interface Entry {
  readonly module: string;
  readonly bundlePath: string;
  /** esbuild's output name (the module without its extension), relative to the bundles folder. */
  readonly out: string;
  /** Module-level consts the source does not export but the lock imports (analysis' localExports). */
  readonly localExports?: readonly string[];
}

type Built = esbuild.BuildResult<{ write: false; metafile: true }>;

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

/**
 * Bundles candidate modules before analysis has said which modules to stage (build.ts runs it beside analysis):
 * the modules that mention "cave", a superset of those analysis will name. Only a clean build is kept (the SDK
 * bundled, no error, every file read inside the project, the SDK or node_modules); otherwise undefined, and stage
 * bundles the modules itself. Never throws.
 */
export async function bundleAhead(root: string, candidates: readonly string[], config: CaveConfig): Promise<Bundled | undefined> {
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

/**
 * Stages every tool module as one self-contained ESM bundle (its staged source graph), with one esbuild
 * call for all of them (or none, when `ahead` bundled them all already). Files are named by canonical id
 * (never by this machine's paths), every input file of each graph is hashed, and a graph that leads out
 * of the project is refused.
 */
export async function stage(root: string, modules: readonly string[], config: CaveConfig, ahead?: Bundled, localExports: Readonly<Record<string, readonly string[]>> = {}): Promise<StageResult> {
  const diagnostics: Diagnostic[] = [];
  const staged = new Map<string, StagedModule>();
  const inputFiles = new Map<string, string>();
  const sdkGraph: { value: StagedSdk | null } = { value: null };
  let sdkModule: StageResult["sdkModule"];
  const stagedAssets = new Map<string, { content: FileContent; sha256: string }>();
  let pins: ExternalPins | undefined;
  try {
    const roots: Roots = { project: realpathSync(root), sdk: packageRoot(), workspace: findWorkspace(root) };
    const entries = selectEntries(roots, modules, config, diagnostics).map((entry) => (localExports[entry.module]?.length ? { ...entry, localExports: localExports[entry.module] } : entry));
    if (entries.length === 0) return { modules: staged, sdk: null, inputFiles, diagnostics };
    pins = pinExternals(roots.project, config.external ?? [], diagnostics);
    const sdkPath = sdkModulePath(config.outDir);
    const reusable = ahead && covers(ahead, roots, entries) ? ownPart(ahead, entries, config) : undefined;
    if (ahead && reusable) {
      sdkModule = { path: sdkPath, code: ahead.sdk.code, sha256: sha256(ahead.sdk.code) };
      await assemble(roots, root, config, entries, reusable, ahead.sdk, staged, diagnostics, inputFiles, sdkGraph, stagedAssets, pins);
    } else {
      // The SDK is bundled beside the modules (they import it as an external module). When the SDK cannot be bundled,
      // what the modules' build found is dropped, as if it had not run.
      const entriesDiagnostics: Diagnostic[] = [];
      const [{ sdk, diagnostics: sdkDiagnostics }, { built, entries: builtEntries }] = await Promise.all([bundleSdk(roots, sdkEntry()), buildEntries(roots, config, entries, entriesDiagnostics)]);
      diagnostics.push(...sdkDiagnostics);
      if (!sdk) return { modules: staged, sdk: null, inputFiles, diagnostics };
      diagnostics.push(...entriesDiagnostics);
      sdkModule = { path: sdkPath, code: sdk.code, sha256: sha256(sdk.code) };
      if (built) await assemble(roots, root, config, builtEntries, built, sdk, staged, diagnostics, inputFiles, sdkGraph, stagedAssets, pins);
    }
  } catch (thrown) {
    diagnostics.push(error("CAVE4001", `staging failed unexpectedly: ${describeThrown(thrown, root)}`, "This is a bug in cave build or esbuild; report it with the message."));
  }
  const externals = usedPins(staged, pins);
  return { modules: new Map([...staged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), sdk: staged.size > 0 ? sdkGraph.value : null, sdkModule: staged.size > 0 ? sdkModule : undefined, ...(externals !== undefined ? { externals } : {}), assets: new Map([...stagedAssets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), inputFiles, diagnostics: dedupe(diagnostics) };
}

/** Whether an earlier build bundled every one of these entries, for this project, with the same output names. */
function covers(ahead: Bundled, roots: Roots, entries: readonly Entry[]): boolean {
  const built = new Map(ahead.entries.map((entry) => [entry.module, entry]));
  // A build ahead ran before analysis named the consts to export: a module that needs one is bundled again.
  if (entries.some((entry) => entry.localExports !== undefined)) return false;
  return ahead.project === roots.project && entries.every((entry) => built.get(entry.module)?.out === entry.out && built.get(entry.module)?.bundlePath === entry.bundlePath);
}

/**
 * The part of a build ahead that belongs to these entries: its warnings without those located in files only other
 * modules read. A warning located in a file that is not an input (a package.json, a tsconfig) cannot be told apart:
 * then undefined, and stage bundles the entries itself.
 */
function ownPart(ahead: Bundled, entries: readonly Entry[], config: CaveConfig): Built | undefined {
  const { metafile } = ahead.built;
  const used = new Set(entries.flatMap((entry) => graphInputs(metafile, entryPointOf(ahead.built, ahead.project, config, entry))));
  const warnings: esbuild.Message[] = [];
  for (const message of ahead.built.warnings) {
    if (!message.location) warnings.push(message);
    else if (used.has(inputKey(message.location))) warnings.push(message);
    else if (!Object.hasOwn(metafile.inputs, inputKey(message.location))) return undefined;
  }
  return { ...ahead.built, warnings };
}

/** The metafile's entry point of an entry's output (esbuild keys outputs by their path relative to the working directory). */
function entryPointOf(built: Built, project: string, config: CaveConfig, entry: Entry): string {
  const outputPath = join(project, config.outDir, "bundles", `${entry.out}.mjs`);
  const outputKey = posix.relative(project.split("\\").join("/"), outputPath.split("\\").join("/"));
  const entryPoint = built.metafile.outputs[outputKey]?.entryPoint;
  if (entryPoint === undefined) throw new Error(`esbuild produced no bundle for ${entry.module}`);
  return entryPoint;
}

function selectEntries(roots: Roots, modules: readonly string[], config: CaveConfig, diagnostics: Diagnostic[]): Entry[] {
  const candidates: Entry[] = [];
  for (const module of [...new Set(modules)].sort()) {
    let real: string | undefined;
    try {
      real = realpathSync(join(roots.project, module));
    } catch {
      real = undefined; // a missing module is reported by esbuild, with its own wording
    }
    if (real !== undefined && place(real, roots).kind === "outside") {
      diagnostics.push(error("CAVE4002", `tool module ${module} is a symlink to a file outside the project root`, "Staged bundles may only hold project files, the cave SDK and installed packages. Replace the symlink with the file itself.", { file: module }));
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
      diagnostics.push(error("CAVE4003", `tool modules ${[entry.module, ...others].join(" and ")} would both be staged as ${entry.bundlePath}`, "Rename one of them: modules may not differ only by their extension.", { file: entry.module }));
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
async function buildEntries(roots: Roots, config: CaveConfig, entries: Entry[], diagnostics: Diagnostic[]): Promise<{ built: Built | undefined; entries: Entry[] }> {
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
    const inside = Object.keys(built.metafile.inputs).every((key) => place(fromPrettyPath(roots.project, key), roots).kind !== "outside");
    return inside ? built : undefined;
  } catch (thrown) {
    if (!Array.isArray((thrown as esbuild.BuildFailure).errors)) throw thrown;
    return undefined;
  }
}

function buildOptions(roots: Roots, config: CaveConfig, entries: readonly Entry[], plugin: esbuild.Plugin) {
  const local = localExportsPlugin(roots.project, Object.fromEntries(entries.map((entry) => [entry.module, entry.localExports ?? []])));
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

/**
 * Turns the entries' outputs into staged modules. Only the files of these entries' graphs count (hashes, canonical
 * ids): the build may have bundled more modules than are staged (bundleAhead), and what those alone read must not
 * change the result (their warnings were left out by ownPart).
 */
async function assemble(roots: Roots, givenRoot: string, config: CaveConfig, entries: readonly Entry[], built: Built, sdk: SdkBundle, staged: Map<string, StagedModule>, diagnostics: Diagnostic[], inputFiles: Map<string, string>, sdkGraph: { value: StagedSdk | null }, stagedAssets: Map<string, { content: FileContent; sha256: string }>, pins: ExternalPins): Promise<void> {
  const { metafile } = built;
  const outputs = new Map(built.outputFiles.map((file) => [file.path, file]));
  const outdir = join(roots.project, config.outDir, "bundles");
  const bundles = entries.map((entry) => {
    const file = outputs.get(join(outdir, `${entry.out}.mjs`));
    if (!file) throw new Error(`esbuild produced no bundle for ${entry.module}`);
    const point = entryPointOf(built, roots.project, config, entry);
    const map = outputs.get(`${file.path}.map`);
    return { entry, text: file.text, map: map === undefined ? undefined : { path: map.path, text: map.text }, inputs: graphInputs(metafile, point), externals: externalPaths(graphExternalImports(metafile, point), config, pins) };
  });
  const used = new Set(bundles.flatMap((bundle) => bundle.inputs));
  const projectInputs = Object.keys(metafile.inputs).filter((key) => used.has(key));
  const projectFiles = projectInputs.map((key) => fromPrettyPath(roots.project, key));

  // Files that locate themselves (import.meta.url, __dirname, __filename): the entries that hold one are bundled again
  // with each such file given its own place in the build folder's mirror of the project (locate.ts).
  const locating = locatingFiles(projectFiles, roots);
  const located = await relocate(roots, config, bundles, locating);
  for (const bundle of bundles) {
    const again = located.get(bundle.entry.module);
    if (again === undefined) continue;
    bundle.text = again.text;
    bundle.map = again.map;
  }
  const assets = stageAssets(roots, config, bundles, locating, diagnostics);
  for (const [path, asset] of assets.content) stagedAssets.set(path, asset);
  const hasher = new FileHasher();
  const hashes = new Map(await Promise.all([...projectFiles, ...sdk.files].map(async (file) => [file, await hasher.hash(file)] as const)));
  for (const [file, hash] of hashes) inputFiles.set(file, hash);
  // The project's graphs and the SDK's are named apart: a package the project installs in another version than the
  // SDK uses (a second TypeBox) must not rename the SDK's files, nor the SDK's the project's.
  const { ids } = assignCanonicalIds(projectFiles, roots, (file) => hashes.get(file) as string);
  const sdkIds = assignCanonicalIds(sdk.files, roots, (file) => hashes.get(file) as string).ids;

  // The SDK is its own module: the lock lists its files and pins its bytes once, and each tool's graph names it by one hash.
  const sdkFiles = Object.fromEntries(sdk.files.map((file) => [sdkIds.get(file) as string, hashes.get(file) as string] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const sdkPath = sdkModulePath(config.outDir);
  sdkGraph.value = { id: sdkGraphId(), sha256: hashJson(sdkFiles), files: sdkFiles, module: { path: sdkPath, sha256: sha256(sdk.code) } };

  const refusedInputs = new Set<string>();
  diagnostics.push(...toDiagnostics(built.warnings, "warning", roots.project, roots));
  for (const message of built.warnings) {
    if (message.detail === OUTSIDE_IMPORT && message.location) refusedInputs.add(message.location.file);
  }

  const renames = new Map<string, string>();
  for (const key of projectInputs) {
    const id = ids.get(fromPrettyPath(roots.project, key));
    if (id !== undefined && id !== key) renames.set(key, id);
  }
  for (const { entry, text, map, inputs, externals } of bundles) {
    if (inputs.some((key) => refusedInputs.has(key))) continue;

    const graph = new Map<string, string>();
    for (const key of inputs) graph.set(ids.get(fromPrettyPath(roots.project, key)) as string, hashes.get(fromPrettyPath(roots.project, key)) as string);
    if (text.includes(JSON.stringify(SDK_PLACEHOLDER))) graph.set(sdkGraph.value.id, sdkGraph.value.sha256);
    const finished = finishBundle(entry.module, sdkSpecifier(entry.bundlePath, sdkPath), rewritePathLines(text, renames), mirrorBase(entry.bundlePath, config.outDir));
    // The source map goes last, inline: pinned with the code, and nothing above it moves.
    const code = finished === undefined ? undefined : `${finished}${(map && inlineSourceMap(map.text, map.path, text, finished, (file) => ids.get(file) ?? placedId(file, roots), entry.bundlePath)) ?? ""}`;
    if (code === undefined) {
      diagnostics.push(error("CAVE4120", `${entry.module} loads "cave" with require() (in a CommonJS file of its graph), which cannot load the SDK's ES module`, 'Import the SDK with an import declaration (import { tool } from "cave"), or move the tool into an ES module.', { file: entry.module }));
      continue;
    }
    const left = leftoverPaths(code, renames, [...new Set([roots.project, givenRoot.replace(/[\\/]+$/, ""), roots.sdk])]);
    if (left.length > 0) {
      diagnostics.push(error("CAVE4001", `the bundle of ${entry.module} still contains a path of this machine`, "Remove absolute paths from the module's source; if there are none, this is a bug in cave build.", { file: entry.module }));
      continue;
    }
    const files = Object.fromEntries([...graph].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const own = assets.byModule.get(entry.module) ?? [];
    staged.set(entry.module, { module: entry.module, bundlePath: entry.bundlePath, code, sha256: sha256(code), files, ...(own.length > 0 ? { assets: own } : {}), ...(externals.length > 0 ? { externals } : {}) });
  }
}

/** The canonical id of a file outside the graph's inputs (a package's original source its own map names), by placement alone. */
function placedId(file: string, roots: Roots): string | undefined {
  const placement = place(file, roots);
  return placement.kind === "project" || placement.kind === "package" ? placement.id : undefined;
}

/** The install paths a graph's external imports need: each configured package it imports and its dependencies, sorted. */
function externalPaths(imports: readonly string[], config: CaveConfig, pins: ExternalPins): string[] {
  const names = new Set(imports.map((specifier) => externalOf(specifier, config.external ?? [])).filter((name) => name !== undefined));
  return [...new Set([...names].flatMap((name) => pins.closure.get(name) ?? []))].sort();
}

/** The pins the staged modules use, for the lock (undefined when none does). */
function usedPins(staged: ReadonlyMap<string, StagedModule>, pins: ExternalPins | undefined): Record<string, LockedExternal> | undefined {
  const used = new Set([...staged.values()].flatMap((module) => module.externals ?? []));
  if (pins === undefined || used.size === 0) return undefined;
  return Object.fromEntries([...used].sort().map((path) => [path, pins.pins[path]!]));
}

/**
 * Bundles again, with the locate plugin, the entries whose graph holds a file that locates itself; their new texts by
 * module. Files are the same, so hashes and ids stay; only how those files see their own location changes.
 */
async function relocate(roots: Roots, config: CaveConfig, bundles: ReadonlyArray<{ entry: Entry; inputs: readonly string[] }>, locating: readonly LocatingFile[]): Promise<Map<string, { text: string; map: { path: string; text: string } | undefined }>> {
  const texts = new Map<string, { text: string; map: { path: string; text: string } | undefined }>();
  if (locating.length === 0) return texts;
  const paths = new Set(locating.map((file) => file.path));
  const affected = bundles.filter((bundle) => bundle.inputs.some((key) => paths.has(fromPrettyPath(roots.project, key)))).map((bundle) => bundle.entry);
  if (affected.length === 0) return texts;
  const options = buildOptions(roots, config, affected, stagePlugin(roots, { guard: true }));
  const built = await esbuild.build({ ...options, plugins: [locatePlugin(locating), ...options.plugins], define: { ...LOCATED_DEFINE } });
  const outdir = join(roots.project, config.outDir, "bundles");
  for (const entry of affected) {
    const file = built.outputFiles.find((output) => output.path === join(outdir, `${entry.out}.mjs`));
    if (!file) throw new Error(`esbuild produced no bundle for ${entry.module}`);
    const map = built.outputFiles.find((output) => output.path === `${file.path}.map`);
    texts.set(entry.module, { text: file.text, map: map === undefined ? undefined : { path: map.path, text: map.text } });
  }
  return texts;
}

/**
 * The files each module's code reads next to itself: what its located files name statically (a folder is a warning,
 * a missing file is left to the code), plus every file the config's assets globs match. Each is read once, its text
 * normalised, and staged at its place in the build folder's mirror of the project.
 */
function stageAssets(roots: Roots, config: CaveConfig, bundles: ReadonlyArray<{ entry: Entry; inputs: readonly string[] }>, locating: readonly LocatingFile[], diagnostics: Diagnostic[]): { byModule: Map<string, StagedAsset[]>; content: Map<string, { content: FileContent; sha256: string }> } {
  const common = configAssets(roots, config, diagnostics);
  const byFile = new Map<string, Map<string, string>>();
  for (const file of locating) {
    const found = new Map<string, string>();
    for (const asset of staticAssets(file, roots)) {
      if (asset.kind === "directory") diagnostics.push(folderReference(asset));
      else if (asset.kind === "file") found.set(asset.id, asset.path);
    }
    byFile.set(file.path, found);
  }
  const content = new Map<string, { content: FileContent; sha256: string }>();
  const bundlePaths = new Set(bundles.map((bundle) => bundle.entry.bundlePath));
  const byModule = new Map<string, StagedAsset[]>();
  for (const { entry, inputs } of bundles) {
    const ids = new Map(common);
    for (const key of inputs) for (const [id, path] of byFile.get(fromPrettyPath(roots.project, key)) ?? []) ids.set(id, path);
    const list: StagedAsset[] = [];
    for (const [id, path] of [...ids].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const at = mirrorPath(config.outDir, id);
      if (bundlePaths.has(at)) {
        diagnostics.push(error("CAVE4123", `${id}, a file ${entry.module} reads next to its code, would be staged where a bundle is (${at})`, "Rename the file or the tool module: a module's bundle takes the place of a file of the same name with the .mjs extension.", { file: entry.module }));
        continue;
      }
      let staged = content.get(at);
      if (staged === undefined) {
        staged = assetContent(path);
        content.set(at, staged);
      }
      list.push({ path: at, sha256: staged.sha256 });
    }
    byModule.set(entry.module, list);
  }
  return { byModule, content };
}

/** The metafile's key of the file a message is located in (esbuild names files of other namespaces `<namespace>:<path>`). */
function inputKey(location: esbuild.Location): string {
  return location.namespace === "file" || location.namespace === "" ? location.file : `${location.namespace}:${location.file}`;
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
