import { Worker, type WorkerOptions } from "node:worker_threads";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/**
 * Worker entries exist as .js files only in the compiled compiler (dist/); from source (the tests) every job runs on
 * the main thread. This module is compiled with the entries, so its own URL tells which case this is.
 */
const COMPILED = import.meta.url.endsWith(".js");

/**
 * Says that work meant for a worker thread ran on the main thread instead. The output is the same either way (each
 * caller's fallback computes the same thing), so this is a note for whoever profiles a slow build, not a diagnostic:
 * one stderr line when CAVE_DEBUG is set (see docs/decisions.md, "One off-thread helper").
 */
export function reportFallback(what: string, why: string): void {
  const debug = process.env.CAVE_DEBUG;
  if (debug === undefined || debug === "" || debug === "0") return;
  process.stderr.write(`cave: ${what} ran on the main thread: ${why}\n`);
}

/**
 * Starts a worker thread on a compiled entry (`new URL("./x-worker.js", import.meta.url)`), or gives undefined (and
 * reports why) when there is none or it cannot start. A worker that fails later is reported here too; what to do
 * about it is the caller's (its "error" and "exit" listeners).
 */
export function startWorker(entry: URL, what: string, options?: WorkerOptions): Worker | undefined {
  if (!COMPILED) {
    reportFallback(what, "running from source, where no compiled worker entry exists");
    return undefined;
  }
  try {
    const worker = new Worker(entry, options);
    worker.once("error", (thrown) => reportFallback(what, `the worker failed: ${thrownText(thrown)}`));
    return worker;
  } catch (thrown) {
    reportFallback(what, `the worker did not start: ${thrownText(thrown)}`);
    return undefined;
  }
}

/**
 * One job on a worker thread that answers with one message: that reply, or undefined (reported) when the worker
 * cannot start or ends without answering, for the caller to do the job itself.
 */
export function offThread<Reply>(entry: URL, what: string, workerData: unknown): Promise<Reply | undefined> {
  const worker = startWorker(entry, what, { workerData });
  if (worker === undefined) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    // An error is reported by startWorker; an exit after the reply or the error is no news.
    let settled = false;
    worker.once("message", (reply: Reply) => {
      settled = true;
      resolve(reply);
      void worker.terminate();
    });
    worker.once("error", () => {
      settled = true;
      resolve(undefined);
    });
    worker.once("exit", (code) => {
      if (!settled) reportFallback(what, `the worker exited (code ${code}) without answering`);
      resolve(undefined);
    });
  });
}
