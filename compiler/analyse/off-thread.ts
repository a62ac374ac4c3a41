import { Worker } from "node:worker_threads";
import type { AnalyseResult } from "../types.js";

/**
 * Analysis on a worker thread, so that this thread stays free to drive esbuild (whose plugin answers from here)
 * while the worker loads TypeScript and parses. The worker runs the compiled compiler (dist/); from source (the
 * tests), or if the worker fails, analysis runs here. The result is the same either way: analysis is a function of
 * the files.
 */
export async function analyseOffThread(root: string, files: readonly string[]): Promise<AnalyseResult> {
  const result = import.meta.url.endsWith(".js") ? await inWorker(root, files) : undefined;
  return result ?? (await import("./index.js")).analyse(root, files);
}

function inWorker(root: string, files: readonly string[]): Promise<AnalyseResult | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: { root, files } });
    } catch {
      resolve(undefined);
      return;
    }
    worker.once("message", (result: AnalyseResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
  });
}
