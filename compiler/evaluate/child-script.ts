import { readFile } from "node:fs/promises";
import * as esbuild from "esbuild";

let cached: Promise<string> | undefined;

/**
 * The child's program as JavaScript. It sits beside this file: child.ts when the compiler runs from
 * source (vitest), child.js in dist/. It is passed with --eval, so the child reads no file at all.
 */
export function childScript(): Promise<string> {
  cached ??= (async () => {
    const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
    const source = await readFile(new URL(`./child.${extension}`, import.meta.url), "utf8");
    const { code } = await esbuild.transform(source, { loader: "ts", format: "esm", target: "node20" });
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
