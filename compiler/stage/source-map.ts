import { dirname, posix, resolve } from "node:path";

/** The prefix of the source map every bundle ends with (a standard inline map, so debuggers and `node --enable-source-maps` read it too). */
export const INLINE_MAP_PREFIX = "//# sourceMappingURL=data:application/json;base64,";

/**
 * The last line of a staged bundle: esbuild's source map of the bundle, inline, so that it is pinned by the bundle's
 * sha256 like the code it describes (docs/decisions.md, "Source maps are inline"). Its sources are the files'
 * canonical ids (project-relative paths, `node_modules/<package>/<subpath>`), never this machine's paths, with a
 * sourceRoot that leads from the bundle back to the project root. esbuild's mappings are shifted by the lines
 * finishBundle put in front of its output (`finished`); undefined when they cannot be (a source map names a file that
 * has no canonical id, or the hashbang line finishBundle removed had mappings of its own).
 */
export function inlineSourceMap(
  mapText: string,
  mapPath: string,
  esbuildOutput: string,
  finished: string,
  idOf: (absolute: string) => string | undefined,
  bundlePath: string,
): string | undefined {
  let map: { sources?: unknown; mappings?: unknown; names?: unknown };
  try {
    map = JSON.parse(mapText) as typeof map;
  } catch {
    return undefined;
  }
  if (!Array.isArray(map.sources) || typeof map.mappings !== "string") return undefined;
  const sources: string[] = [];
  for (const source of map.sources) {
    if (typeof source !== "string") return undefined;
    // A package that ships its own source maps makes esbuild name its original files (a package's src/*.ts), which are
    // not inputs of the graph: idOf places those too. A URL a package's map names (webpack://...) says nothing of this
    // machine and stays as it is.
    sources.push(
      idOf(resolve(dirname(mapPath), source)) ?? (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? source : UNKNOWN_SOURCE),
    );
  }
  const lines = map.mappings.split(";");
  const hashbang = esbuildOutput.startsWith("#!");
  if (hashbang && lines[0] !== "") return undefined;
  const shift = lineCount(finished) - lineCount(esbuildOutput) + (hashbang ? 1 : 0);
  const mappings = [...new Array<string>(shift).fill(""), ...lines.slice(hashbang ? 1 : 0)].join(";");
  const sourceRoot = posix.relative(posix.dirname(bundlePath), "");
  const json = JSON.stringify({
    version: 3,
    sourceRoot: sourceRoot === "" ? "" : `${sourceRoot}/`,
    sources,
    names: Array.isArray(map.names) ? map.names : [],
    mappings,
  });
  return `${INLINE_MAP_PREFIX}${Buffer.from(json).toString("base64")}\n`;
}

/** A source that is neither a file of the project or of a package nor a URL (nothing of the machine is shown). */
const UNKNOWN_SOURCE = "(unknown source)";

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
