import { availableParallelism } from "node:os";
import type { ExportReport } from "./protocol.js";
import { Session } from "./session.js";

export interface Job {
  readonly module: string;
  /** The bundle's path in the build folder, for messages. */
  readonly label: string;
  readonly code: string;
}

/** How importing one module ended. */
export type Outcome =
  | { readonly type: "imported"; readonly exports: readonly ExportReport[] }
  | { readonly type: "threw"; readonly message: string; readonly exitCode: number | null; readonly rule: { readonly code: string; readonly hint: string } | null }
  | { readonly type: "timeout" }
  | { readonly type: "ended"; readonly detail: string };

/** Below this many modules per child, a second child costs more to start than it saves. */
const MODULES_PER_CHILD = 32;
const MAX_CHILDREN = 2;
/**
 * Each imported bundle stays in memory (about 1 MB of heap with the SDK's TypeBox), so a child is
 * replaced after this many imports: memory stays bounded for any number of modules, at the cost of one
 * process start (~40 ms) per batch.
 */
const IMPORTS_PER_CHILD = 200;

/**
 * Imports every bundle in as few child processes as possible: one or two children take modules from a
 * shared queue. A module that hangs or ends its child is judged only in a fresh child where it is the
 * first import, so a timer left behind by an earlier module is never blamed on it; the rest carry on in
 * a new child.
 */
export async function importAll(jobs: readonly Job[], script: string, options: { readonly timeoutMs: number; readonly cwd: string }): Promise<Map<string, Outcome>> {
  const { timeoutMs, cwd } = options;
  const outcomes = new Map<string, Outcome>();
  const queue = [...jobs];
  const children = Math.max(1, Math.min(MAX_CHILDREN, availableParallelism(), Math.ceil(jobs.length / MODULES_PER_CHILD)));
  const worker = async () => {
    let session: Session | undefined;
    try {
      let retry: Job | undefined;
      for (let job = queue.shift(); job !== undefined; job = retry ?? queue.shift()) {
        retry = undefined;
        if (session && session.imports >= IMPORTS_PER_CHILD) {
          session.kill();
          session = undefined;
        }
        if (!session) {
          try {
            session = await Session.start(script, { timeoutMs: Math.max(timeoutMs, 10_000), cwd });
          } catch (thrown) {
            outcomes.set(job.module, { type: "ended", detail: (thrown as Error).message });
            continue;
          }
        }
        const fresh = session.fresh;
        const reply = await session.run({ type: "import", module: job.module, label: job.label, code: job.code }, timeoutMs);
        if (reply.type === "imported" || reply.type === "threw") {
          if (reply.module !== job.module) {
            session.kill();
            session = undefined;
            outcomes.set(job.module, { type: "ended", detail: "the evaluation process answered for another module" });
            continue;
          }
          outcomes.set(job.module, reply.type === "imported" ? { type: "imported", exports: reply.exports } : { type: "threw", message: reply.message, exitCode: reply.exitCode, rule: reply.rule });
          continue;
        }
        session.kill();
        session = undefined;
        if (fresh) outcomes.set(job.module, reply);
        else retry = job; // again, first in a new child
      }
    } finally {
      session?.kill();
    }
  };
  await Promise.all(Array.from({ length: children }, worker));
  return outcomes;
}
