import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { nodeFeatures, type PermissionFlag } from "../../runtime/sandbox/node-features.js";

let cached: Promise<string> | undefined;

/**
 * The child's program as one JavaScript module. It sits beside this file: child.ts when the compiler runs
 * from source (vitest), child.js in dist/; it is bundled with the runtime's deny layer it imports, and
 * passed with --eval, so the child reads no file at all.
 */
export function childScript(): Promise<string> {
  cached ??= (async () => {
    const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL(`./child.${extension}`, import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]?.text;
    if (code === undefined) throw new Error("esbuild returned no output for the evaluation child");
    return code;
  })();
  return cached;
}

/**
 * Node's permission model: without --allow-fs-read / --allow-fs-write / --allow-child-process /
 * --allow-worker, the child can read and write no file and start no process. The flag's name depends
 * on the Node version (runtime/sandbox/node-features.ts); a Node without one cannot evaluate tool modules safely.
 */
export function permissionFlag(): PermissionFlag {
  const flag = nodeFeatures().permissionFlag;
  if (flag === null)
    throw new Error(
      `Node ${process.version} has no permission model, which the evaluation process runs under; use Node 20 or later`,
    );
  return flag;
}
