/**
 * A worker thread that compiles schemas beside the main thread (parallel.ts). Both take the next index from one
 * shared counter, so neither waits for the other; the worker posts back what it compiled, by index.
 */
import { parentPort, workerData } from "node:worker_threads";
import { standaloneCompiler, type Compiled } from "./compile.js";

interface Work {
  readonly schemas: readonly unknown[];
  readonly next: Int32Array;
}

const { schemas, next } = workerData as Work;
const compile = standaloneCompiler();
const done: Array<[number, Compiled]> = [];
for (let i = Atomics.add(next, 0, 1); i < schemas.length; i = Atomics.add(next, 0, 1))
  done.push([i, compile(schemas[i])]);
parentPort?.postMessage(done);
