import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

/**
 * Loads the runtime's bundle (dist/runtime/bundle.cjs, written by scripts/bundle-runtime.mjs: one function expression
 * with Node's CommonJS parameters) as a script compiled with the V8 code cache made beside it at build time
 * (bundle.cjs.v8cache), and returns its exports.
 *
 * Why: on Node 20 an ES module is always parsed and compiled from its text, and a function again on its first call.
 * That was most of a locked deploy's ready + first call (bench/runtime: import ~26 ms, createRuntime ~14, first call
 * ~27 at 1,000 tools, ~11 of it the tool's own module). A script can be given V8's code cache, which holds the bytecode
 * of every function the build's warm-up ran (scripts/warm-runtime.mjs), so neither the bundle's parse nor the first
 * call's lazy compiles happen again. Node 20 has no such cache for ES modules (Node 22's NODE_COMPILE_CACHE is one).
 *
 * The cache is used only for the exact bytes it was made from: it starts with their SHA-256 (V8 itself checks only
 * the source's length, its own version and its flags, and would run stale bytecode for other text of the same length).
 * A cache V8 rejects (another Node, other V8 flags), or one for other bytes, or none, costs only the compile it would
 * have saved. `shared` are the ES modules the bundle keeps outside it, by the specifier it requires them with.
 */
export function loadScriptBundle(url: URL, shared: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const file = fileURLToPath(url);
  const bytes = readFileSync(file);
  // latin1: the bundle is ASCII (esbuild's charset option), and a one-byte string is the cheapest to make.
  const script = new Script(bytes.toString("latin1"), {
    filename: file,
    cachedData: cacheFor(bytes, `${file}${CACHE_SUFFIX}`),
  });
  loaded = { file, script, rejected: script.cachedDataRejected };
  const builtins = createRequire(file);
  const require = (specifier: string): unknown =>
    Object.hasOwn(shared, specifier) ? shared[specifier] : builtins(specifier);
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as BundleFunction)(module.exports, require, module, file, dirname(file));
  return module.exports;
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

let loaded: { readonly file: string; readonly script: Script; readonly rejected: boolean | undefined } | undefined;

/** The cache's V8 data when it was made from `bytes`, else undefined (no file, or made from other bytes). */
function cacheFor(bytes: Buffer, cacheFile: string): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const digest = createHash("sha256").update(bytes).digest();
  return cache.length > DIGEST_BYTES && digest.equals(cache.subarray(0, DIGEST_BYTES))
    ? cache.subarray(DIGEST_BYTES)
    : undefined;
}

/**
 * How the bundle was compiled in this process: "cache" when V8 took the code cache, "rejected" when V8 refused it,
 * "source" when there was none for these bytes; undefined when the bundle was not loaded.
 */
export function bundleCompiledFrom(): "cache" | "rejected" | "source" | undefined {
  if (loaded === undefined) return undefined;
  return loaded.rejected === undefined ? "source" : loaded.rejected ? "rejected" : "cache";
}

/**
 * The code cache of the bundle loaded in this process, as its file holds it (the source's SHA-256, then V8's data),
 * with the bytecode of every function run so far: the build writes it after a warm-up (scripts/warm-runtime.mjs).
 */
export function bundleCodeCache(): Buffer {
  if (loaded === undefined) throw new Error("the runtime's bundle is not loaded in this process");
  const source = readFileSync(loaded.file);
  return Buffer.concat([createHash("sha256").update(source).digest(), loaded.script.createCachedData()]);
}
