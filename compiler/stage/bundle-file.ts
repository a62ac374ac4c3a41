import { posix } from "node:path";
import { DIR_PATH, FILE_PATH, FILE_URL } from "./locate.js";
import { SDK_PLACEHOLDER } from "./plugin.js";

/** Where a module's bundle goes: `<outDir>/bundles/<module with its extension replaced by .mjs>`. */
export function bundlePathFor(outDir: string, module: string): string {
  return posix.join(posix.normalize(outDir), "bundles", `${withoutExtension(module)}.mjs`);
}

/** The module path without its extension: esbuild's `out` name for the entry point. */
export function withoutExtension(module: string): string {
  const ext = posix.extname(module);
  return ext === "" ? module : module.slice(0, -ext.length);
}

/**
 * A path as it may appear in a `//` comment: escaped like a string literal's content (as esbuild writes
 * its own path comments), including the two line separators that JSON leaves as they are.
 */
export function commentForm(path: string): string {
  return JSON.stringify(path).slice(1, -1).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

/**
 * esbuild's ESM output turns `require()` of a Node builtin inside a bundled CommonJS package into a
 * call that throws unless `require` exists, so a bundle whose code names `require` defines one. It is created from a
 * fixed file URL when the bundle is imported from a data: URL (as the evaluator does), since createRequire needs a
 * file URL and builtins resolve without one. esbuild avoids the name `require` for user symbols.
 */
const REQUIRE_SHIM = [
  'import { createRequire as __caveCreateRequire } from "node:module";',
  'const require = __caveCreateRequire(import.meta.url.startsWith("file:") ? import.meta.url : "file:///");',
].join("\n");

/**
 * The require shim's lines (with their line break) for a bundle whose code names `require` anywhere, else nothing: code
 * that never names it cannot reach the binding, and createRequire is ~0.7 ms of a cold first call. The test is on the
 * word, so any mention (a comment, a string, `typeof require`) keeps the shim: it can only add it where it is not needed.
 */
export function requireShimFor(code: string): string {
  return /\brequire\b/.test(code) ? `${REQUIRE_SHIM}\n` : "";
}

/**
 * The final bytes of a bundle: the do-not-edit header, the require shim where its code names `require`, then esbuild's output (without a hashbang
 * line, which could not follow the header), its imports of "cave" pointed at the build's one SDK module by a relative
 * specifier. Undefined when the placeholder survives anywhere but in such an import (a `require("cave")` in a
 * CommonJS file, which cannot load an ES module).
 */
export function finishBundle(
  module: string,
  sdkSpecifier: string,
  esbuildOutput: string,
  mirror = "./",
): string | undefined {
  const newline = esbuildOutput.indexOf("\n");
  const body = !esbuildOutput.startsWith("#!") ? esbuildOutput : newline < 0 ? "" : esbuildOutput.slice(newline + 1);
  const quoted = JSON.stringify(SDK_PLACEHOLDER);
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.includes(quoted) && SDK_IMPORT_LINE.test(line))
      lines[i] = line.replace(quoted, JSON.stringify(sdkSpecifier));
  }
  const linked = lines.join("\n");
  if (linked.includes(SDK_PLACEHOLDER)) return undefined;
  const locating =
    linked.includes(`${FILE_URL}(`) || linked.includes(`${FILE_PATH}(`) || linked.includes(`${DIR_PATH}(`);
  return `${bundleHeader(module)}${requireShimFor(linked)}${locating ? `${locatingHeader(mirror)}\n` : ""}${linked}`;
}

/**
 * What a bundle defines when files of its graph locate themselves (locate.ts): each such file's URL, path and folder in
 * the build folder's mirror of the project, from the bundle's own URL (`mirror`: the mirror's root relative to it).
 * Wherever the bundle is imported from (the build folder, the runtime's private copy), the mirror is beside it.
 */
export function locatingHeader(mirror: string): string {
  return [
    'import { fileURLToPath as __caveFileURLToPath } from "node:url";',
    `const __caveMirror = new URL(${JSON.stringify(mirror)}, import.meta.url);`,
    `const ${FILE_URL} = (id) => new URL(id, __caveMirror).href;`,
    `const ${FILE_PATH} = (id) => __caveFileURLToPath(new URL(id, __caveMirror));`,
    `const ${DIR_PATH} = (id) => __caveFileURLToPath(new URL(".", new URL(id, __caveMirror))).replace(/[\\\\/]$/, "");`,
  ].join("\n");
}

/** The mirror's root (`<outDir>/bundles/`) relative to a bundle's folder, as a URL path ending in "/". */
export function mirrorBase(bundlePath: string, outDir: string): string {
  const relative = posix.relative(posix.dirname(bundlePath), posix.join(posix.normalize(outDir), "bundles"));
  return relative === "" ? "./" : `${relative}/`;
}

/** An import or re-export statement esbuild prints for an external module, on one line. */
const SDK_IMPORT_LINE = new RegExp(
  `^(?:import|export)\\b[^"]*?(?:\\bfrom )?${JSON.stringify(SDK_PLACEHOLDER).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")};$`,
);

/** A bundle's first line, with its newline. */
export function bundleHeader(module: string): string {
  return `// Generated by cave build from ${commentForm(module)}. Do not edit.\n`;
}
