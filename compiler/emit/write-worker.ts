/** The worker thread of writer.ts: performs write jobs in the order they come, answering each. */
import { parentPort } from "node:worker_threads";
import { performWrite, type WriteJob } from "./write-job.js";

parentPort?.on("message", (job: WriteJob) => parentPort?.postMessage(performWrite(job)));
