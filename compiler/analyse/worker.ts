/** Runs analysis on a worker thread (off-thread.ts): the result is plain data, posted back as it is. */
import { parentPort, workerData } from "node:worker_threads";
import { analyse } from "./index.js";

const { root, files } = workerData as { root: string; files: readonly string[] };
parentPort?.postMessage(analyse(root, files));
