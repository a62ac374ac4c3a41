// Makes the runtime's code cache (dist/runtime/bundle.cjs.v8cache; scripts/bundle-runtime.mjs runs this after
// bundling, in a fresh process, with the modules the bundle keeps outside it as its argument, JSON): builds the
// warm-up project (scripts/warm-up/) in a temporary folder, loads the bundle as dist/runtime/index.js does, makes the
// calls of a typical first use, then writes V8's cache of the bundle with every function those ran compiled. What the
// warm-up did not run is compiled on first use, as before.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const runtimeDir = join(repoRoot, "dist", "runtime");
/** The arguments of the warm-up's calls, valid for its tool. */
const ARGS = JSON.parse(readFileSync(join(repoRoot, "scripts", "warm-up", "arguments.json"), "utf8"));

const root = mkdtempSync(join(tmpdir(), "cave-warm-up-"));
try {
  cpSync(join(repoRoot, "scripts", "warm-up"), root, { recursive: true });
  symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
  execFileSync(
    process.execPath,
    [join(repoRoot, "dist", "compiler", "cli", "bin.js"), "build", "--write", "--root", root],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const { loadScriptBundle, bundleCodeCache, CACHE_SUFFIX } = await import(
    pathToFileURL(join(runtimeDir, "loading", "script-bundle.js")).href
  );
  const shared = {};
  for (const path of JSON.parse(process.argv[2]))
    shared[`./${path}`] = await import(pathToFileURL(join(runtimeDir, path)).href);
  const { createRuntime } = loadScriptBundle(pathToFileURL(join(runtimeDir, "bundle.cjs")), shared);
  const runtime = await createRuntime({ root, mode: "host", journal: null });
  const outcomes = [
    await runtime.call("price_order", ARGS),
    // The same arguments again: the repeat guard's refusal.
    await runtime.call("price_order", ARGS),
    // Arguments the schema refuses: the input's problem, worded.
    await runtime.call("price_order", { ...ARGS, code: "abc" }),
  ];
  const codes = outcomes.map((outcome) => (outcome.ok ? "ok" : outcome.error.code));
  if (codes[0] !== "ok" || codes[2] !== "INPUT_INVALID")
    throw new Error(`warm-runtime: the warm-up calls gave ${codes.join(", ")}`);
  await runtime.close();
  writeFileSync(join(runtimeDir, `bundle.cjs${CACHE_SUFFIX}`), bundleCodeCache());
} finally {
  rmSync(root, { recursive: true, force: true });
}
