import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

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
 * --allow-worker, the child can read and write no file and start no process. Node 20 names the flag
 * --experimental-permission; 22.13+ call it --permission and newer versions reject the old name.
 */
export function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";
}
