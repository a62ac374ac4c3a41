import { isAbsolute, resolve } from "node:path";
import type { Plugin } from "esbuild";
import { place, type Roots } from "./placement.js";

/** The esbuild namespace of the pre-bundled SDK module that every `import "cave"` resolves to. */
export const SDK_NAMESPACE = "cave";
export const SDK_MODULE_PATH = "src/index.ts";

/** Marks the warnings this plugin raises for imports that lead out of the project. */
export const OUTSIDE_IMPORT = Symbol.for("cave.stage.outsideImport");

const INNER = Symbol("cave.stage.innerResolve");

/**
 * Maps "cave" to the SDK that built the bundle (a facade over the SDK prelude), and with `guard`, refuses any import that resolves outside the
 * project, the SDK and node_modules (a symlink pointing out of the project, or a path leading out of it).
 * Allowed imports are left to esbuild's own resolver: a plugin that returns a path loses the
 * package.json "type" of the file, and with it Node's CommonJS interop semantics.
 */
export function stagePlugin(roots: Roots, sdkFacade: Promise<string>, options: { readonly guard: boolean }): Plugin {
  return {
    name: "cave-stage",
    setup(build) {
      build.onResolve({ filter: /^cave$/ }, () => ({ path: SDK_MODULE_PATH, namespace: SDK_NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: SDK_NAMESPACE }, async () => ({ contents: await sdkFacade, loader: "js", resolveDir: roots.sdk }));
      if (!options.guard) return;
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === INNER || args.namespace === SDK_NAMESPACE) return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          namespace: args.namespace,
          with: args.with,
          pluginData: INNER,
        });
        if (result.errors.length > 0 || result.external || result.namespace !== "file") return undefined;
        if (place(result.path, roots).kind !== "outside") return undefined;
        const written = isRelative(args.path) ? resolve(args.resolveDir, args.path) : undefined;
        const throughSymlink = written !== undefined && place(written, roots).kind !== "outside";
        return {
          path: args.path,
          external: true,
          warnings: [
            {
              text: `${JSON.stringify(args.path)}, which leads outside the project root${throughSymlink ? " through a symlink" : ""}`,
              detail: OUTSIDE_IMPORT,
            },
          ],
        };
      });
    },
  };
}

function isRelative(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../");
}

/** The real path behind an esbuild pretty path (which is relative to the working directory). */
export function fromPrettyPath(workingDir: string, pretty: string): string {
  return isAbsolute(pretty) ? pretty : resolve(workingDir, pretty);
}
