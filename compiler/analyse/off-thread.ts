import { offThread } from "../util/off-thread.js";
import type { AnalyseResult } from "../types.js";

/**
 * Analysis on a worker thread, so that this thread stays free to drive esbuild (whose plugin answers from here)
 * while the worker loads TypeScript and parses. Where there is no worker (from source, or it fails), analysis runs
 * here. The result is the same either way: analysis is a function of the files.
 */
export async function analyseOffThread(root: string, files: readonly string[]): Promise<AnalyseResult> {
  const result = await offThread<AnalyseResult>(new URL("./worker.js", import.meta.url), "analysis", { root, files });
  return result ?? (await import("./index.js")).analyse(root, files);
}
