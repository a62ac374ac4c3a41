import { join } from "node:path";
import * as esbuild from "esbuild";
import { hashJson, sha256 } from "../../src/contract/hash.js";
import { error, type Diagnostic } from "../diagnostics.js";
import { sdkGraphId } from "../package-root.js";
import type { CaveConfig, FileContent, StagedAsset, StagedModule, StagedSdk } from "../types.js";
import { assetContent, configAssets, folderReference, mirrorPath } from "./assets.js";
import { finishBundle, mirrorBase } from "./bundle-file.js";
import { buildOptions, entryPointOf, type Bundling, type Entry } from "./bundle-strategy.js";
import { assignCanonicalIds } from "./canonical-ids.js";
import { externalOf, type ExternalPins } from "./externals.js";
import { FileHasher } from "./file-hasher.js";
import { graphExternalImports, graphInputs } from "./graph.js";
import { LOCATED_DEFINE, locatePlugin, locatingFiles, staticAssets, type LocatingFile } from "./locate.js";
import { toDiagnostics } from "./messages.js";
import { place, type Roots } from "./placement.js";
import { fromPrettyPath, OUTSIDE_IMPORT, SDK_PLACEHOLDER, stagePlugin } from "./plugin.js";
import { leftoverPaths, rewritePathLines } from "./rewrite.js";
import { sdkModulePath, sdkSpecifier } from "./sdk-bundle.js";
import { inlineSourceMap } from "./source-map.js";

/** What assemble made of esbuild's output: the staged modules and everything the lock and the build cache need of them. */
export interface Assembled {
  readonly modules: Map<string, StagedModule>;
  /** Absolute path -> sha256 of every file of the staged graphs and the SDK's. */
  readonly inputFiles: Map<string, string>;
  readonly sdk: StagedSdk;
  /** Asset files by their path in the build folder. */
  readonly assets: Map<string, { content: FileContent; sha256: string }>;
  readonly diagnostics: Diagnostic[];
}

/**
 * Turns the entries' outputs into staged modules. Only the files of these entries' graphs count (hashes, canonical
 * ids): the build may have bundled more modules than are staged (bundleAhead), and what those alone read must not
 * change the result (their warnings were left out by ownPart).
 */
export async function assemble(
  roots: Roots,
  givenRoot: string,
  config: CaveConfig,
  { built, entries, sdk }: Bundling,
  pins: ExternalPins,
): Promise<Assembled> {
  const diagnostics: Diagnostic[] = [];
  const staged = new Map<string, StagedModule>();
  const inputFiles = new Map<string, string>();
  const { metafile } = built;
  const outputs = new Map(built.outputFiles.map((file) => [file.path, file]));
  const outdir = join(roots.project, config.outDir, "bundles");
  const bundles = entries.map((entry) => {
    const file = outputs.get(join(outdir, `${entry.out}.mjs`));
    if (!file) throw new Error(`esbuild produced no bundle for ${entry.module}`);
    const point = entryPointOf(built, roots.project, config, entry);
    const map = outputs.get(`${file.path}.map`);
    return {
      entry,
      text: file.text,
      map: map === undefined ? undefined : { path: map.path, text: map.text },
      inputs: graphInputs(metafile, point),
      externals: externalPaths(graphExternalImports(metafile, point), config, pins),
    };
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
  const hasher = new FileHasher();
  const hashes = new Map(
    await Promise.all([...projectFiles, ...sdk.files].map(async (file) => [file, await hasher.hash(file)] as const)),
  );
  for (const [file, hash] of hashes) inputFiles.set(file, hash);
  // The project's graphs and the SDK's are named apart: a package the project installs in another version than the
  // SDK uses (a second TypeBox) must not rename the SDK's files, nor the SDK's the project's.
  const { ids } = assignCanonicalIds(projectFiles, roots, (file) => hashes.get(file) as string);
  const sdkIds = assignCanonicalIds(sdk.files, roots, (file) => hashes.get(file) as string).ids;

  // The SDK is its own module: the lock lists its files and pins its bytes once, and each tool's graph names it by one hash.
  const sdkFiles = Object.fromEntries(
    sdk.files
      .map((file) => [sdkIds.get(file) as string, hashes.get(file) as string] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const sdkPath = sdkModulePath(config.outDir);
  const sdkGraph: StagedSdk = {
    id: sdkGraphId(),
    sha256: hashJson(sdkFiles),
    files: sdkFiles,
    module: { path: sdkPath, sha256: sha256(sdk.code) },
  };

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
    for (const key of inputs)
      graph.set(
        ids.get(fromPrettyPath(roots.project, key)) as string,
        hashes.get(fromPrettyPath(roots.project, key)) as string,
      );
    if (text.includes(JSON.stringify(SDK_PLACEHOLDER))) graph.set(sdkGraph.id, sdkGraph.sha256);
    const finished = finishBundle(
      entry.module,
      sdkSpecifier(entry.bundlePath, sdkPath),
      rewritePathLines(text, renames),
      mirrorBase(entry.bundlePath, config.outDir),
    );
    // The source map goes last, inline: pinned with the code, and nothing above it moves.
    const code =
      finished === undefined
        ? undefined
        : `${finished}${(map && inlineSourceMap(map.text, map.path, text, finished, (file) => ids.get(file) ?? placedId(file, roots), entry.bundlePath)) ?? ""}`;
    if (code === undefined) {
      diagnostics.push(
        error(
          "CAVE4120",
          `${entry.module} loads "cave" with require() (in a CommonJS file of its graph), which cannot load the SDK's ES module`,
          'Import the SDK with an import declaration (import { tool } from "cave"), or move the tool into an ES module.',
          { file: entry.module },
        ),
      );
      continue;
    }
    const left = leftoverPaths(code, renames, [
      ...new Set([roots.project, givenRoot.replace(/[\\/]+$/, ""), roots.sdk]),
    ]);
    if (left.length > 0) {
      diagnostics.push(
        error(
          "CAVE4001",
          `the bundle of ${entry.module} still contains a path of this machine`,
          "Remove absolute paths from the module's source; if there are none, this is a bug in cave build.",
          { file: entry.module },
        ),
      );
      continue;
    }
    const files = Object.fromEntries([...graph].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const own = assets.byModule.get(entry.module) ?? [];
    staged.set(entry.module, {
      module: entry.module,
      bundlePath: entry.bundlePath,
      code,
      sha256: sha256(code),
      files,
      ...(own.length > 0 ? { assets: own } : {}),
      ...(externals.length > 0 ? { externals } : {}),
    });
  }
  return { modules: staged, inputFiles, sdk: sdkGraph, assets: assets.content, diagnostics };
}

/** The canonical id of a file outside the graph's inputs (a package's original source its own map names), by placement alone. */
function placedId(file: string, roots: Roots): string | undefined {
  const placement = place(file, roots);
  return placement.kind === "project" || placement.kind === "package" ? placement.id : undefined;
}

/** The install paths a graph's external imports need: each configured package it imports and its dependencies, sorted. */
function externalPaths(imports: readonly string[], config: CaveConfig, pins: ExternalPins): string[] {
  const names = new Set(
    imports.map((specifier) => externalOf(specifier, config.external ?? [])).filter((name) => name !== undefined),
  );
  return [...new Set([...names].flatMap((name) => pins.closure.get(name) ?? []))].sort();
}

/**
 * Bundles again, with the locate plugin, the entries whose graph holds a file that locates itself; their new texts by
 * module. Files are the same, so hashes and ids stay; only how those files see their own location changes.
 */
async function relocate(
  roots: Roots,
  config: CaveConfig,
  bundles: ReadonlyArray<{ entry: Entry; inputs: readonly string[] }>,
  locating: readonly LocatingFile[],
): Promise<Map<string, { text: string; map: { path: string; text: string } | undefined }>> {
  const texts = new Map<string, { text: string; map: { path: string; text: string } | undefined }>();
  if (locating.length === 0) return texts;
  const paths = new Set(locating.map((file) => file.path));
  const affected = bundles
    .filter((bundle) => bundle.inputs.some((key) => paths.has(fromPrettyPath(roots.project, key))))
    .map((bundle) => bundle.entry);
  if (affected.length === 0) return texts;
  const options = buildOptions(roots, config, affected, stagePlugin(roots, { guard: true }));
  const built = await esbuild.build({
    ...options,
    plugins: [locatePlugin(locating), ...options.plugins],
    define: { ...LOCATED_DEFINE },
  });
  const outdir = join(roots.project, config.outDir, "bundles");
  for (const entry of affected) {
    const file = built.outputFiles.find((output) => output.path === join(outdir, `${entry.out}.mjs`));
    if (!file) throw new Error(`esbuild produced no bundle for ${entry.module}`);
    const map = built.outputFiles.find((output) => output.path === `${file.path}.map`);
    texts.set(entry.module, {
      text: file.text,
      map: map === undefined ? undefined : { path: map.path, text: map.text },
    });
  }
  return texts;
}

/**
 * The files each module's code reads next to itself: what its located files name statically (a folder is a warning,
 * a missing file is left to the code), plus every file the config's assets globs match. Each is read once, its text
 * normalised, and staged at its place in the build folder's mirror of the project.
 */
function stageAssets(
  roots: Roots,
  config: CaveConfig,
  bundles: ReadonlyArray<{ entry: Entry; inputs: readonly string[] }>,
  locating: readonly LocatingFile[],
  diagnostics: Diagnostic[],
): { byModule: Map<string, StagedAsset[]>; content: Map<string, { content: FileContent; sha256: string }> } {
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
    for (const key of inputs)
      for (const [id, path] of byFile.get(fromPrettyPath(roots.project, key)) ?? []) ids.set(id, path);
    const list: StagedAsset[] = [];
    for (const [id, path] of [...ids].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const at = mirrorPath(config.outDir, id);
      if (bundlePaths.has(at)) {
        diagnostics.push(
          error(
            "CAVE4123",
            `${id}, a file ${entry.module} reads next to its code, would be staged where a bundle is (${at})`,
            "Rename the file or the tool module: a module's bundle takes the place of a file of the same name with the .mjs extension.",
            { file: entry.module },
          ),
        );
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
