import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import type { Plugin } from "esbuild";
import { place, type Roots } from "./placement.js";

/**
 * Code that locates itself: `import.meta.url` (and `import.meta.dirname`/`filename`), `__dirname` and `__filename`.
 * Bundled into one file, every module would see the bundle's location (or, for CommonJS, nothing: `__dirname` does
 * not exist in an ES module), so each file that mentions one of them is given its own location in the staged mirror
 * of the project inside the build folder (`<outDir>/bundles/<canonical id>`), where the files it reads next to
 * itself are staged. Only those files are loaded through the plugin; every other file is esbuild's own.
 */
const LOCATING = /import\.meta\.(?:url|dirname|filename)|__dirname|__filename/;

/** The names the bundle header defines for located files (bundle-file.ts locatingHeader); esbuild keeps user symbols off them. */
export const FILE_URL = "__caveFileUrl";
export const FILE_PATH = "__caveFilePath";
export const DIR_PATH = "__caveDirPath";

/** Replacements for the located forms, bound per file by the declarations the plugin puts in front of its code. */
export const LOCATED_DEFINE = {
  "import.meta.url": "__caveMetaUrl",
  "import.meta.filename": "__caveMetaFilename",
  "import.meta.dirname": "__caveMetaDirname",
} as const;

/** A file of a graph that locates itself: its canonical id (its place in the mirror) and the text it reads. */
export interface LocatingFile {
  readonly path: string;
  readonly id: string;
  readonly text: string;
}

/** The files among `inputs` (real paths) that mention a locating form, with their ids. Reads each file once. */
export function locatingFiles(inputs: readonly string[], roots: Roots): LocatingFile[] {
  const found: LocatingFile[] = [];
  for (const path of inputs) {
    if (!/\.[cm]?[jt]sx?$/.test(path)) continue;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    if (!LOCATING.test(text)) continue;
    const placement = place(path, roots);
    if (placement.kind === "outside") continue;
    found.push({ path, id: placement.id, text });
  }
  return found;
}

/** The loader esbuild would pick by extension. */
function loaderOf(path: string): "js" | "jsx" | "ts" | "tsx" {
  const ext = extname(path);
  if (ext === ".ts" || ext === ".mts" || ext === ".cts") return "ts";
  if (ext === ".tsx") return "tsx";
  if (ext === ".jsx") return "jsx";
  return "js";
}

/** Whether the file declares `name` itself (the usual `const __dirname = dirname(fileURLToPath(import.meta.url))`). */
function declares(text: string, name: string): boolean {
  return new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b|[{,]\\s*${name}\\s*[,}=]`).test(text);
}

/**
 * The declarations put in front of a located file's code, on its first line so that line numbers stay what they
 * are: its own file URL for the `import.meta` forms (esbuild's `define` turns those into these names), and
 * `__dirname`/`__filename` where it uses them without declaring them.
 */
export function locatingPrefix(file: LocatingFile): string {
  const id = JSON.stringify(file.id);
  const parts = [
    `var ${LOCATED_DEFINE["import.meta.url"]} = ${FILE_URL}(${id}), ${LOCATED_DEFINE["import.meta.filename"]} = ${FILE_PATH}(${id}), ${LOCATED_DEFINE["import.meta.dirname"]} = ${DIR_PATH}(${id});`,
  ];
  if (/__filename/.test(file.text) && !declares(file.text, "__filename"))
    parts.push(`var __filename = ${FILE_PATH}(${id});`);
  if (/__dirname/.test(file.text) && !declares(file.text, "__dirname"))
    parts.push(`var __dirname = ${DIR_PATH}(${id});`);
  return parts.join(" ");
}

/** Loads exactly the located files with their prefix; every other file is left to esbuild. */
export function locatePlugin(files: readonly LocatingFile[]): Plugin {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const escaped = files.map((file) => file.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return {
    name: "cave-locate",
    setup(build) {
      if (files.length === 0) return;
      build.onLoad({ filter: new RegExp(`^(?:${escaped.join("|")})$`) }, (args) => {
        const file = byPath.get(args.path);
        if (file === undefined) return undefined;
        // A hashbang must stay the first line: the prefix goes after it, on the same line as the next.
        const hashbang = file.text.startsWith("#!")
          ? file.text.slice(0, file.text.indexOf("\n") + 1 || file.text.length)
          : "";
        return {
          contents: `${hashbang}${locatingPrefix(file)}${file.text.slice(hashbang.length)}`,
          loader: loaderOf(file.path),
          resolveDir: dirname(file.path),
        };
      });
    },
  };
}

/** A file a located file reads next to itself, found statically: its real path and canonical id. */
export interface FoundAsset {
  readonly path: string;
  readonly id: string;
  /** The located file that names it (its canonical id), for diagnostics. */
  readonly from: string;
  readonly line: number;
  readonly column: number;
  readonly kind: "file" | "directory" | "missing";
}

const NEW_URL = /new\s+URL\(\s*(["'`])([^"'`$\\]+)\1\s*,\s*import\.meta\.url\s*\)/g;
const JOIN_DIRNAME = /\b(join|resolve)\(\s*(?:__dirname|import\.meta\.dirname)\s*,\s*(["'`])([^"'`$\\]+)\2\s*\)/g;

/** The static references to files next to a located file: `new URL("literal", import.meta.url)`, `join(__dirname, "literal")`. */
export function staticAssets(file: LocatingFile, roots: Roots): FoundAsset[] {
  const found: FoundAsset[] = [];
  const add = (target: string, index: number) => {
    const placement = place(target, roots);
    if (placement.kind === "outside") return;
    const before = file.text.slice(0, index);
    const line = before.split("\n").length;
    const column = index - before.lastIndexOf("\n");
    const kind = !existsSync(target) ? "missing" : statSync(target).isDirectory() ? "directory" : "file";
    found.push({ path: target, id: placement.id, from: file.id, line, column, kind });
  };
  const dir = dirname(file.path);
  for (const match of file.text.matchAll(NEW_URL)) {
    const literal = match[2]!;
    // Only paths next to the file: a URL with a scheme or an absolute path names no file of the project.
    if (/^[a-z][a-z0-9+.-]*:/i.test(literal) || literal.startsWith("/")) continue;
    add(resolve(dir, decodeURI(literal)), match.index!);
  }
  for (const match of file.text.matchAll(JOIN_DIRNAME)) {
    const literal = match[3]!;
    add(match[1] === "join" ? join(dir, literal) : resolve(dir, literal), match.index!);
  }
  return found;
}
