import { isAbsolute, resolve } from "node:path";
import type { Plugin } from "esbuild";
import { place, type Roots } from "./placement.js";

/**
 * What `import ... from "cave"` becomes in esbuild's output: an external import of this placeholder, which
 * finishBundle replaces with the relative specifier of the build's SDK module (sdk-bundle.ts).
 */
export const SDK_PLACEHOLDER = "cave:sdk-module";

/** Marks the warnings this plugin raises for imports that lead out of the project. */
export const OUTSIDE_IMPORT = Symbol.for("cave.stage.outsideImport");

const INNER = Symbol("cave.stage.innerResolve");

/**
 * Maps "cave" to the SDK module that the build stages once (an external import), and with `guard`, refuses any import that resolves outside the
 * project, the SDK and node_modules (a symlink pointing out of the project, or a path leading out of it).
 * Allowed imports are left to esbuild's own resolver: a plugin that returns a path loses the
 * package.json "type" of the file, and with it Node's CommonJS interop semantics.
 */
export function stagePlugin(roots: Roots, options: { readonly guard: boolean }): Plugin {
  return {
    name: "cave-stage",
    setup(build) {
      build.onResolve({ filter: /^cave$/ }, () => ({ path: SDK_PLACEHOLDER, external: true }));
      if (!options.guard) return;
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === INNER || args.path === "cave") return undefined;
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
