// The files a set of ES modules reach by relative imports, and the packages they import by name: what a package
// made of them must contain and depend on (scripts/pack-runtime.mjs). Reads emitted JavaScript and declaration
// files as text, comments left out: static `from "…"` and `import "…"`, dynamic `import("…")` and `require("…")` of a string literal
// (a createRequire'd require included, called at once, as esbuild's CommonJS output calls it, `(0, m.createRequire)(u)("…")`,
// or as \`req\`). A declaration file's "./x.js" is its "./x.d.ts".
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, resolve } from "node:path";

const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\b(?:require|req)\d*\(\s*|\bcreateRequire\)?\([^()]*\)\(\s*)"([^"\s]+)"/g;
/** What a module specifier looks like: relative, node:, or a package name (lower case, optional scope) with a subpath. */
const LOOKS_LIKE_MODULE = /^(?:\.\.?\/|node:|(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(?:\/|$))/;
const BUILTINS = new Set(builtinModules);

/** { files, packages }: absolute paths reached from `entries` (included), and the package names imported, sorted. */
export function importClosure(entries) {
  const files = new Set();
  const packages = new Set();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop();
    if (files.has(file)) continue;
    files.add(file);
    const declaration = file.endsWith(".d.ts");
    for (const [, specifier] of withoutComments(readFileSync(file, "utf8")).matchAll(SPECIFIER)) {
      if (!LOOKS_LIKE_MODULE.test(specifier)) continue;
      if (specifier.startsWith("./") || specifier.startsWith("../")) {
        const target = resolve(dirname(file), declaration ? specifier.replace(/\.js$/, ".d.ts") : specifier);
        if (!existsSync(target)) throw new Error(`${file} imports ${specifier}, which does not exist`);
        todo.push(target);
      } else if (!specifier.startsWith("node:") && !BUILTINS.has(specifier)) packages.add(packageName(specifier));
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/** The text without block comments and whole-line comments (doc comments quote imports that are not made). */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** "gpt-tokenizer/encoding/x" → "gpt-tokenizer"; "@scope/name/x" → "@scope/name". */
function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}
