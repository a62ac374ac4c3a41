import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { build, type Plugin } from "esbuild";
import { DependencyIds } from "./dependency-ids.js";
import { HELPERS_GLOBAL } from "./helpers.js";

const ENTRY = "cave-validator";
const DEPENDENCY = "cave-dep";

// Ajv's standalone code requires its helpers ("ajv/dist/runtime/ucs2length", "ajv-formats/dist/formats") by
// package name: they resolve from this package, where ajv and ajv-formats are dependencies.
const fromCompiler = createRequire(import.meta.url);

export type Bundled =
  | { readonly ok: true; readonly modules: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly error: unknown };

/**
 * Bundles each source (by name) into one self-contained script that assigns its exports to HELPERS_GLOBAL, in one
 * esbuild call: the validators' preludes (prelude.ts), Ajv's runtime helpers and the formats inlined, no `require`
 * and no import left. Entries and dependencies live in plugin namespaces with canonical ids, so no path of this
 * machine reaches the output.
 */
export async function bundleValidators(sources: ReadonlyMap<string, string>): Promise<Bundled> {
  if (sources.size === 0) return { ok: true, modules: new Map() };
  const ids = new DependencyIds();
  const plugin: Plugin = {
    name: "cave-validators",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${ENTRY}:`) }, (args) => ({
        path: args.path.slice(ENTRY.length + 1),
        namespace: ENTRY,
      }));
      b.onLoad({ filter: /.*/, namespace: ENTRY }, (args) => ({
        contents: sources.get(args.path) ?? "",
        loader: "js",
      }));
      b.onResolve({ filter: /.*/, namespace: ENTRY }, (args) => ({
        path: ids.idOf(fromCompiler.resolve(args.path)),
        namespace: DEPENDENCY,
      }));
      b.onResolve({ filter: /.*/, namespace: DEPENDENCY }, (args) => ({
        path: ids.idOf(createRequire(ids.file(args.importer)).resolve(args.path)),
        namespace: DEPENDENCY,
      }));
      b.onLoad({ filter: /.*/, namespace: DEPENDENCY }, (args) => ({
        contents: readFileSync(ids.file(args.path), "utf8"),
        loader: args.path.endsWith(".json") ? "json" : "js",
      }));
    },
  };
  try {
    const result = await build({
      entryPoints: Object.fromEntries([...sources.keys()].map((name) => [name, `${ENTRY}:${name}`])),
      bundle: true,
      write: false,
      metafile: true,
      format: "iife",
      globalName: HELPERS_GLOBAL,
      platform: "neutral",
      target: "node20",
      outdir: "cave-validators",
      entryNames: "[name]",
      splitting: false,
      minify: false,
      sourcemap: false,
      legalComments: "inline",
      logLevel: "silent",
      plugins: [plugin],
    });
    for (const [output, meta] of Object.entries(result.metafile.outputs)) {
      // A module that still imports or requires anything would need node_modules at run time.
      if (meta.imports.length > 0)
        throw new Error(`${basename(output)} still imports ${meta.imports.map((i) => i.path).join(", ")}`);
    }
    const modules = new Map<string, string>();
    for (const file of result.outputFiles) modules.set(basename(file.path, ".js"), file.text);
    for (const name of sources.keys())
      if (!modules.has(name)) throw new Error(`esbuild produced no module for ${name}`);
    return { ok: true, modules };
  } catch (error) {
    return { ok: false, error };
  }
}
