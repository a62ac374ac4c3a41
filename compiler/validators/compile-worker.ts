/**
 * A worker thread that compiles schemas beside the main thread (parallel.ts). It sets up its compiler (Ajv, the
 * meta-schema checker) as soon as it starts, possibly before the schemas are known, then waits for them. Both threads
 * take the next index from one shared counter, so neither waits for the other; the worker posts back what it
 * compiled, by index.
 */
import { parentPort } from "node:worker_threads";
import { standaloneCompiler, type Compiled } from "./compile.js";

interface Work {
  readonly schemas: readonly unknown[];
  readonly next: Int32Array;
}

const compile = standaloneCompiler();
parentPort?.once("message", ({ schemas, next }: Work) => {
  const done: Array<[number, Compiled]> = [];
  for (let i = Atomics.add(next, 0, 1); i < schemas.length; i = Atomics.add(next, 0, 1)) done.push([i, compile(schemas[i])]);
  parentPort?.postMessage(done);
});
