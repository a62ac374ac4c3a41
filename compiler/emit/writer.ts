import type { Worker } from "node:worker_threads";
import { reportFallback, startWorker } from "../util/off-thread.js";
import { performWrite, type WriteJob, type WriteReply } from "./write-job.js";

/**
 * Writes (and removes) build-folder files on a worker thread, so that this thread goes on with the build meanwhile:
 * creating files is mostly the kernel's work, and here it overlaps evaluation (which leaves this thread idle) and
 * planning. Jobs run in the order given. What the worker cannot do (it does not start, from source in the tests, or
 * it ends) is done on this thread instead (util/off-thread.ts reports it); writing is idempotent, so a job the worker may have half done is simply
 * done again. The files are the same either way.
 */
export class BuildFolderWriter {
  #worker: Worker | undefined;
  readonly #waiting: Array<{ readonly job: WriteJob; readonly resolve: (reply: WriteReply) => void }> = [];

  constructor() {
    const worker = startWorker(new URL("./write-worker.js", import.meta.url), "writing the build folder");
    if (worker === undefined) return;
    worker.on("message", (reply: WriteReply) => {
      this.#waiting.shift()?.resolve(reply);
      // Idle, it never keeps the process alive; with work, it does (an awaited reply is no handle of its own).
      if (this.#waiting.length === 0) worker.unref();
    });
    worker.once("error", () => this.#lose(worker));
    worker.once("exit", (code) => this.#lose(worker, `the worker exited (code ${code})`));
    worker.unref();
    this.#worker = worker;
  }

  /** Runs the job after every job given before; resolves with its outcome. */
  run(job: WriteJob): Promise<WriteReply> {
    const worker = this.#worker;
    if (worker === undefined) return Promise.resolve(performWrite(job));
    return new Promise((resolve) => {
      this.#waiting.push({ job, resolve });
      worker.ref();
      worker.postMessage(job);
    });
  }

  /** Ends the worker. Only once every run() has resolved: a job still running would be cut short. */
  close(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) void worker.terminate();
  }

  /** The worker is gone: what it had not answered is done here, in order. An error was reported by startWorker. */
  #lose(worker: Worker, why?: string): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (why !== undefined) reportFallback("writing the build folder", why);
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(performWrite(waiting.job));
  }
}
