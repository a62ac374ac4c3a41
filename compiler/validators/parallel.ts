import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { standaloneCompiler, type Compiled } from "./compile.js";

/** Below this many schemas a worker (about 100 ms to start and load Ajv) saves nothing. */
const MIN_FOR_WORKER = 64;

/**
 * The compilers of one validators pass: this thread and, on a machine with more than one core, a worker thread beside
 * it. Each schema is compiled by a fresh (or reset) Ajv (compile.ts), so the code is the same whichever thread
 * compiles it. The worker runs the compiled compiler (dist/); from source (the tests) everything is compiled here.
 *
 * `start()` spawns the worker at once, so that it loads Ajv while the build is still evaluating (build.ts does this
 * when the pass has nothing cached, so that it will compile every schema); `compile()` then hands it the schemas.
 */
export class SchemaCompilers {
  #worker: Worker | undefined;
  #done: Promise<Array<[number, Compiled]>> | undefined;

  static start(): SchemaCompilers {
    const compilers = new SchemaCompilers();
    if (availableParallelism() > 1 && import.meta.url.endsWith(".js")) compilers.#spawn();
    return compilers;
  }

  /**
   * Compiles every schema (at most once per instance): on this thread and, for many schemas, on the worker, each
   * taking the next schema from a shared counter. Whatever the worker does not deliver is compiled here.
   */
  async compile(schemas: readonly unknown[]): Promise<Compiled[]> {
    if (schemas.length < MIN_FOR_WORKER) this.close();
    const next = new Int32Array(new SharedArrayBuffer(4));
    // Working, it keeps the process alive (this thread may end up only awaiting its answer).
    this.#worker?.ref();
    this.#worker?.postMessage({ schemas, next });
    const helper = this.#done;
    const compile = standaloneCompiler();
    const results: Array<Compiled | undefined> = new Array(schemas.length);
    for (let i = Atomics.add(next, 0, 1); i < schemas.length; i = Atomics.add(next, 0, 1)) results[i] = compile(schemas[i]);
    for (const [i, compiled] of (await helper) ?? []) results[i] = compiled;
    this.close();
    return results.map((compiled, i) => compiled ?? compile(schemas[i]));
  }

  /** Ends the worker, if any (a build that needs no compiling, or fails before, must call it). */
  close(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#done = undefined;
    if (worker) void worker.terminate();
  }

  #spawn(): void {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./compile-worker.js", import.meta.url));
    } catch {
      return;
    }
    // Waiting for work, it never keeps the process alive.
    worker.unref();
    this.#worker = worker;
    // Its results, or none if it fails or ends first (then this thread compiles what is missing).
    this.#done = new Promise((resolve) => {
      worker.once("message", (done: Array<[number, Compiled]>) => resolve(done));
      worker.once("error", () => resolve([]));
      worker.once("exit", () => resolve([]));
    });
  }
}

/** Every schema compiled, with compilers started now. */
export async function compileSchemas(schemas: readonly unknown[]): Promise<Compiled[]> {
  const compilers = SchemaCompilers.start();
  try {
    return await compilers.compile(schemas);
  } finally {
    compilers.close();
  }
}
