// Assembles the runtime as its own package, `cave-runtime`, for a locked deploy that needs only the runtime
// (issue 20: a runtime-only deploy installs under 5 MB), and packs it with `npm pack`:
//   npm run build && node scripts/pack-runtime.mjs <out-dir>     (prints the tarball's path)
//
// The package holds exactly the files dist/runtime/index.js reaches by relative imports (the entry, the bundle it
// loads with its code cache, the modules they keep beside them, the result-plan engine they load lazily, their
// types) plus the sandbox child's files, at the same paths as in cave, so nothing is rewritten. Its dependencies are the packages those files
// import by name, at cave's own ranges, found by scanning them (tested: test/runtime/deploy-package.test.ts):
//  - gpt-tokenizer is bundled (bundleDependencies) and trimmed to the modules the o200k_base count imports, with
//    its package.json (the runtime checks the pinned version from it) and licence: 2.6 MB of its 30 MB;
//  - the journal drivers (better-sqlite3, pg) are optional peer dependencies, as in cave.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { importClosure } from "./import-closure.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The packages every runtime-only deploy may lack: loaded by name only when a journal of theirs is used. */
const OPTIONAL_PEERS = ["better-sqlite3", "pg"];
/** The tokenizer's modules the runtime imports (src/contract/results/tokenizer.ts). */
const TOKENIZER_ENTRIES = ["esm/encoding/o200k_base.js", "esm/encodingParams/constants.js"];

export function runtimePackage(root) {
  const cave = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entry = join(root, "dist", "runtime", "index.js");
  // The entry loads bundle.cjs (with its code cache) as a script, not by an import: named here, and the modules it
  // requires from beside it are followed from it.
  const bundle = join(root, "dist", "runtime", "bundle.cjs");
  const code = importClosure([entry, bundle, join(root, "dist", "runtime", "results", "attach.js")]);
  const types = importClosure([join(root, "dist", "runtime", "index.d.ts")]);
  const child = join(root, "dist", "runtime", "sandbox", "child");
  const files = [...new Set([...code.files, ...types.files, `${bundle}.v8cache`])]
    .map((file) => relative(root, file).split(sep).join("/"))
    .sort();
  const names = [...new Set([...code.packages, ...types.packages])]
    .filter((name) => !OPTIONAL_PEERS.includes(name))
    .sort();
  const dependencies = Object.fromEntries(names.map((name) => [name, cave.dependencies[name] ?? missing(name)]));
  const manifest = {
    name: "cave-runtime",
    version: cave.version,
    description: "The Cave Build runtime alone, for a locked deploy: verifies cave.lock and runs exactly its plan.",
    license: cave.license,
    type: "module",
    engines: cave.engines,
    exports: { ".": { types: "./dist/runtime/index.d.ts", default: "./dist/runtime/index.js" } },
    dependencies,
    bundleDependencies: ["gpt-tokenizer"].filter((name) => name in dependencies),
    peerDependencies: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, cave.peerDependencies[name]])),
    peerDependenciesMeta: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, { optional: true }])),
  };
  return { manifest, files, childDir: relative(root, child).split(sep).join("/") };
}

function missing(name) {
  throw new Error(`the runtime imports ${name}, which is not among cave's dependencies`);
}

function main(out) {
  if (out === undefined) {
    console.error("usage: node scripts/pack-runtime.mjs <out-dir>");
    process.exit(2);
  }
  const { manifest, files, childDir } = runtimePackage(repoRoot);
  const dir = resolve(out, "cave-runtime");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(dir, file));
  }
  cpSync(join(repoRoot, childDir), join(dir, childDir), { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if ("gpt-tokenizer" in manifest.dependencies) copyTokenizer(join(dir, "node_modules", "gpt-tokenizer"));
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", resolve(out)], {
    cwd: dir,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .at(-1);
  process.stdout.write(`${join(resolve(out), packed)}\n`);
}

/** gpt-tokenizer with only the modules the o200k_base count reaches (its other tables and builds left out). */
function copyTokenizer(target) {
  const source = join(repoRoot, "node_modules", "gpt-tokenizer");
  const { files, packages } = importClosure(TOKENIZER_ENTRIES.map((file) => join(source, file)));
  if (packages.length > 0) throw new Error(`gpt-tokenizer's modules import ${packages.join(", ")}; bundle those too`);
  for (const file of [...files, join(source, "package.json"), join(source, "LICENSE")]) {
    const to = join(target, relative(source, file));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(file, to);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv[2]);
