import { availableParallelism } from "node:os";
import { offThread } from "../util/off-thread.js";
import { standaloneCompiler, type Compiled } from "./compile.js";

/** Below this many schemas a worker (about 100 ms to start and load Ajv) saves nothing. */
const MIN_FOR_WORKER = 64;

/**
 * Compiles every schema, on this thread and, for many schemas on a machine with more than one core, on a worker
 * thread beside it: each takes the next schema from a shared counter. Each schema is compiled by a fresh Ajv
 * (compile.ts), so the code is the same whichever thread compiles it. Whatever the worker does not deliver (from
 * source there is none) is compiled here.
 */
export async function compileSchemas(schemas: readonly unknown[]): Promise<Compiled[]> {
  const next = new Int32Array(new SharedArrayBuffer(4));
  const helper =
    schemas.length >= MIN_FOR_WORKER && availableParallelism() > 1 ? startWorker(schemas, next) : undefined;
  const compile = standaloneCompiler();
  const results: Array<Compiled | undefined> = new Array(schemas.length);
  for (let i = Atomics.add(next, 0, 1); i < schemas.length; i = Atomics.add(next, 0, 1))
    results[i] = compile(schemas[i]);
  for (const [i, compiled] of (await helper) ?? []) results[i] = compiled;
  return results.map((compiled, i) => compiled ?? compile(schemas[i]));
}

/** The worker's results, or none if it cannot run or fails. */
async function startWorker(schemas: readonly unknown[], next: Int32Array): Promise<Array<[number, Compiled]>> {
  return (
    (await offThread<Array<[number, Compiled]>>(
      new URL("./compile-worker.js", import.meta.url),
      "validator compilation",
      { schemas, next },
    )) ?? []
  );
}
