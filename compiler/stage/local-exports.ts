import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Loader, Plugin } from "esbuild";

const LOADERS: Readonly<Record<string, Loader>> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * A tool written as a module-level const without `export` (the contract's own example) that a locked agent lists is
 * imported by the runtime like any other: by export name. The staged bundle of its module exports it under its own
 * name: the module's text is given to esbuild with `export { name };` appended (the file on disk, which the lock
 * hashes, is unchanged). Only those modules go through this plugin, matched by exact path.
 */
export function localExportsPlugin(
  project: string,
  localExports: Readonly<Record<string, readonly string[]>>,
): Plugin | undefined {
  const byPath = new Map(
    Object.entries(localExports)
      .filter(([, names]) => names.length > 0)
      .map(([module, names]) => [join(project, module), names]),
  );
  if (byPath.size === 0) return undefined;
  const filter = new RegExp(`^(?:${[...byPath.keys()].map(escapeRegExp).join("|")})$`);
  return {
    name: "cave-local-exports",
    setup(build) {
      build.onLoad({ filter, namespace: "file" }, async (args) => {
        const names = byPath.get(args.path);
        if (!names) return undefined;
        const text = await readFile(args.path, "utf8");
        return { contents: `${text}\n;export { ${names.join(", ")} };\n`, loader: LOADERS[extname(args.path)] ?? "ts" };
      });
    },
  };
}
