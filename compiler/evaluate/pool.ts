import { availableParallelism } from "node:os";
import type { ExportReport } from "./protocol.js";
import { RETAINED_WHOLE, Session, type Launch } from "./session.js";

export interface Job {
  readonly module: string;
  /** The bundle's path in the build folder, for messages. */
  readonly label: string;
  readonly code: string;
  /** The bundle's body for a child's shared SDK (split.ts bundleBody), if the bundle could be split. */
  readonly body?: string | undefined;
}

/** How importing one module ended. */
export type Outcome =
  /** `sdk`: whether the module's body ran with the child's shared SDK, or the whole bundle with its own copy. */
  | { readonly type: "imported"; readonly exports: readonly ExportReport[]; readonly sdk: "shared" | "own" }
  | { readonly type: "threw"; readonly message: string; readonly exitCode: number | null; readonly rule: { readonly code: string; readonly hint: string; readonly subject: string } | null }
  | { readonly type: "timeout" }
  | { readonly type: "ended"; readonly detail: string };

/**
 * With `perModule` (what evaluate() uses), every module is imported in a process of its own, the sandbox-boundary
 * issue's rule: a module's lock facts come from that module alone, whatever an earlier module patched (the IPC send
 * function, a prototype, a builtin module its libraries use), and no module sees another's bundle on the channel.
 * Without it (tests of the shared SDK), one or two children take modules from a queue as below.
 */
/** Below this many modules per child, a second child costs more to start than it saves. */
const MODULES_PER_CHILD = 32;
const MAX_CHILDREN = 2;
/**
 * Each imported module stays in memory, so a child is replaced once it holds this many bodies' worth
 * (session.ts RETAINED_WHOLE: 200 whole bundles, as before the SDK was shared, or 1,200 bodies): memory stays
 * bounded for any number of modules, at the cost of one process start (~40 ms) per batch.
 */
const RETAINED_PER_CHILD = 200 * RETAINED_WHOLE;

/**
 * Imports every bundle in as few child processes as possible: one or two children take modules from a
 * shared queue. A module that hangs or ends its child is judged only in a fresh child where it is the
 * first import, so a timer left behind by an earlier module is never blamed on it; the rest carry on in
 * a new child.
 *
 * With `sdk` (split.ts sdkModule), each child first evaluates the SDK once, frozen, and a job with a body is
 * imported as that body with the shared SDK. Only a clean success counts there: a body the child calls
 * untrusted (it threw, or something threw meanwhile) is imported again whole, with its own SDK, in the same child
 * and with the same time limit, so its outcome is what importing the whole bundle gives.
 */
export async function importAll(
  jobs: readonly Job[],
  script: string,
  options: { readonly timeoutMs: number; readonly cwd: string; readonly sdk?: string | undefined; readonly perModule?: boolean; readonly launch?: Launch },
): Promise<Map<string, Outcome>> {
  const { timeoutMs, cwd, sdk, launch } = options;
  const perModule = options.perModule ?? false;
  const startTimeoutMs = Math.max(timeoutMs, 10_000);
  const outcomes = new Map<string, Outcome>();
  const queue = [...jobs];
  const children = perModule ? Math.max(1, Math.min(availableParallelism(), jobs.length)) : Math.max(1, Math.min(MAX_CHILDREN, availableParallelism(), Math.ceil(jobs.length / MODULES_PER_CHILD)));
  const worker = async () => {
    let session: Session | undefined;
    let share = sdk !== undefined;
    try {
      let retry: Job | undefined;
      for (let job = queue.shift(); job !== undefined; job = retry ?? queue.shift()) {
        retry = undefined;
        if (session && session.retained >= RETAINED_PER_CHILD) {
          session.kill();
          session = undefined;
        }
        if (!session) {
          try {
            session = await Session.start(script, { timeoutMs: startTimeoutMs, cwd, launch });
          } catch (thrown) {
            outcomes.set(job.module, { type: "ended", detail: (thrown as Error).message });
            continue;
          }
          if (share && sdk !== undefined) {
            try {
              await session.shareSdk(sdk, startTimeoutMs);
            } catch {
              // The SDK is only a shortcut: this worker goes on without it, in a new child.
              session = undefined;
              share = false;
              retry = job;
              continue;
            }
          }
        }
        const fresh = session.fresh;
        const split = job.body !== undefined && session.sharesSdk;
        let via: "shared" | "own" = split ? "shared" : "own";
        let reply = await session.run({ type: "import", module: job.module, label: job.label, code: split ? job.body! : job.code, sharedSdk: split }, timeoutMs);
        if (split && reply.type === "untrusted" && reply.module === job.module) {
          via = "own";
          reply = await session.run({ type: "import", module: job.module, label: job.label, code: job.code, sharedSdk: false }, timeoutMs);
        }
        if (reply.type === "imported" || reply.type === "threw" || reply.type === "untrusted") {
          if (reply.module !== job.module || reply.type === "untrusted") {
            session.kill();
            session = undefined;
            outcomes.set(job.module, { type: "ended", detail: `the evaluation process answered ${reply.module !== job.module ? "for another module" : "out of turn"}` });
            continue;
          }
          outcomes.set(job.module, reply.type === "imported" ? { type: "imported", exports: reply.exports, sdk: via } : { type: "threw", message: reply.message, exitCode: reply.exitCode, rule: reply.rule });
          if (perModule) {
            // No module shares a process with another: what one module did cannot change what the next one reports.
            session.kill();
            session = undefined;
          }
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
