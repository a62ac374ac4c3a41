import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

/**
 * Loads the runtime's bundle (dist/runtime/bundle.cjs, written by scripts/bundle-runtime.mjs: one function expression
 * with Node's CommonJS parameters) as a script compiled with a V8 code cache, and returns its exports.
 *
 * Why: on Node 20 an ES module is always parsed and compiled from its text, and a function again on its first call.
 * That was most of a locked deploy's ready + first call (bench/runtime: import ~26 ms, createRuntime ~14, first call
 * ~27 at 1,000 tools, ~11 of it the tool's own module). A script can be given V8's code cache, which holds the bytecode
 * of every function a warm-up ran, so neither the bundle's parse nor the first call's lazy compiles happen again.
 *
 * Which cache: the one the build made beside the bundle after its warm-up (bundle.cjs.v8cache, scripts/warm-runtime.mjs),
 * made by the Node that built the package. On another Node V8 refuses it, and the bundle compiles from its text; there,
 * when Node's own compile cache is on (NODE_COMPILE_CACHE, or module.enableCompileCache() called before the runtime
 * loads; Node's cache does not cover scripts), the runtime keeps its own cache for that Node in Node's folder, written
 * when the process exits, as Node writes its own.
 *
 * A cache is used only for the exact bytes it was made from: it starts with their SHA-256 (V8 itself checks only the
 * source's length, its own version and its flags, and would run stale bytecode for other text of the same length).
 * `shared` are the ES modules the bundle keeps outside it, by the specifier it requires them with.
 */
export function loadScriptBundle(url: URL, shared: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const file = fileURLToPath(url);
  const bytes = bundleBytes(file);
  // node:crypto directly, not src/contract/hash.ts: a digest of file bytes, not of a value's canonical JSON, and the
  // entry this module is inlined into stays free of packages (resolving one costs milliseconds at every start).
  const digest = createHash("sha256").update(bytes).digest();
  const own = ownCacheFile(compileCacheFolder());
  const cachedData =
    (own === undefined ? undefined : cacheFor(digest, own)) ?? cacheFor(digest, `${file}${CACHE_SUFFIX}`);
  // latin1: the bundle is ASCII (esbuild's charset option), and a one-byte string is the cheapest to make.
  const script = new Script(bytes.toString("latin1"), { filename: file, cachedData });
  loaded = { digest, script, rejected: script.cachedDataRejected };
  if (own !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
    process.once("exit", () => writeOwnCache(own));
  const builtins = nodeModule.createRequire(file);
  const require = (specifier: string): unknown =>
    Object.hasOwn(shared, specifier) ? shared[specifier] : builtins(specifier);
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as BundleFunction)(module.exports, require, module, file, dirname(file));
  return module.exports;
}

/**
 * The bundle's bytes. Absent beside the entry, the usual cause is an application bundler (esbuild, webpack, Rollup)
 * that inlined the entry into the application and left the files it reads behind: said so, with the fix, under
 * Node's code for a module file that is not there.
 */
function bundleBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code !== "ENOENT") throw thrown;
    throw Object.assign(
      new Error(
        `cave's runtime found no ${basename(file)} beside its entry module: it runs as an installed package, from node_modules, and reads that file and the sandbox's from beside itself. If the application is bundled (esbuild, webpack, Rollup), mark "cave" and "cave-runtime" external, so that they are imported from node_modules (docs/runtime.md); otherwise reinstall the package`,
      ),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
  }
}

/** The code cache's file: the bundle's path with this after it. */
export const CACHE_SUFFIX = ".v8cache";
const DIGEST_BYTES = 32;

type BundleFunction = (
  exports: object,
  require: (specifier: string) => unknown,
  module: object,
  file: string,
  dir: string,
) => void;

let loaded: { readonly digest: Buffer; readonly script: Script; readonly rejected: boolean | undefined } | undefined;

/** The cache's V8 data when it was made from the bytes of SHA-256 `digest`, else undefined (no file, other bytes). */
function cacheFor(digest: Buffer, cacheFile: string): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return cache.length > DIGEST_BYTES && digest.equals(cache.subarray(0, DIGEST_BYTES))
    ? cache.subarray(DIGEST_BYTES)
    : undefined;
}

/**
 * The folder of Node's compile cache when it is on: Node's own answer where it has one (22.8 and later: the folder for
 * this Node's version inside the one configured, whether by NODE_COMPILE_CACHE or by module.enableCompileCache()), else
 * NODE_COMPILE_CACHE as set (Node 20 ignores the variable; the runtime's cache is its own either way).
 */
function compileCacheFolder(): string | undefined {
  const fromNode = (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
  return fromNode ?? process.env.NODE_COMPILE_CACHE;
}

/** This Node's cache of the bundle in the compile cache folder `folder`, when there is one. */
function ownCacheFile(folder: string | undefined): string | undefined {
  if (folder === undefined || folder === "") return undefined;
  return join(folder, `cave-runtime-${process.version}-${process.arch}${CACHE_SUFFIX}`);
}

/** Best effort, as Node's own compile cache: a folder that cannot be written leaves the next start as it was. */
function writeOwnCache(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bundleCodeCache());
  } catch {
    // Nothing to report to: the process is exiting, and the cache only ever saves time.
  }
}

/**
 * How the bundle was compiled in this process: "cache" when V8 took a code cache, "rejected" when V8 refused it,
 * "source" when there was none for these bytes; undefined when the bundle was not loaded.
 */
export function bundleCompiledFrom(): "cache" | "rejected" | "source" | undefined {
  if (loaded === undefined) return undefined;
  return loaded.rejected === undefined ? "source" : loaded.rejected ? "rejected" : "cache";
}

/**
 * The code cache of the bundle loaded in this process, as a cache file holds it (the source's SHA-256, then V8's
 * data), with the bytecode of every function run so far.
 */
export function bundleCodeCache(): Buffer {
  if (loaded === undefined) throw new Error("the runtime's bundle is not loaded in this process");
  return Buffer.concat([loaded.digest, loaded.script.createCachedData()]);
}
