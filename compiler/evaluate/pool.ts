import { availableParallelism } from "node:os";
import type { ExportReport } from "./protocol.js";
import { Session, type Launch } from "./session.js";

export interface Job {
  readonly module: string;
  /** The bundle's path in the build folder, for messages. */
  readonly label: string;
  /** The bundle's file URL in the private copy of the staged files. */
  readonly url: string;
  /**
   * Import it in a child of its own. For a module that imports external packages: they are loaded from node_modules
   * once per process, so a module could change one for the next, and the realm guard does not reach them.
   */
  readonly alone?: boolean;
  /** May load native addons (a module with external packages): granted only in a child of its own under the OS layer. */
  readonly addons?: boolean;
  /**
   * Writes the bundle where `url` points, called just before its first import. A bundle that is not there yet cannot be
   * imported early by a module evaluated before it in the same child (which could leave a doctored copy in that child's
   * module map, and put everything back before the realm guard looks).
   */
  readonly place?: () => Promise<unknown>;
}

/** Where the jobs' files are: the private copy's folder (with a trailing separator) and its file URL. */
export interface Copy {
  readonly base: string;
  readonly baseUrl: string;
}

/** How importing one module ended. */
export type Outcome =
  /** `sdk`: whether the module ran with the child's shared, frozen SDK, or in a child of its own. */
  | { readonly type: "imported"; readonly exports: readonly ExportReport[]; readonly sdk: "shared" | "own" }
  | {
      readonly type: "threw";
      readonly message: string;
      readonly exitCode: number | null;
      readonly rule: { readonly code: string; readonly hint: string; readonly subject: string } | null;
      readonly stack: string | null;
    }
  | { readonly type: "timeout" }
  | { readonly type: "ended"; readonly detail: string };

/**
 * A module's lock facts come from that module alone, whatever an earlier module did (the sandbox-boundary issue's
 * rule). A child serves several modules only while that holds: it talks over a channel captured before any module
 * runs, and after each import its realm guard (realm-guard.ts) checks that the module left nothing changed and nothing
 * to run later; at the first change the child answers for that module and exits, and the next module starts in a
 * fresh child.
 */
/** Below this many modules per child, a second child costs more to start than it saves. */
const MODULES_PER_CHILD = 32;
const MAX_CHILDREN = 2;
/**
 * Each imported module stays in memory (~20-50 KB of heap each on Node 20, the SDK module being shared), so a child is
 * replaced once it has imported this many: memory stays bounded for any number of modules, at the cost of one process
 * start (~40 ms) per batch.
 */
const RETAINED_PER_CHILD = 1_200;

/**
 * Imports every bundle in as few child processes as possible: one or two children take modules from a
 * shared queue. A module that hangs or ends its child is judged only in a fresh child where it is the
 * first import, so a timer left behind by an earlier module is never blamed on it; the rest carry on in
 * a new child.
 *
 * With `sdkUrl`, each child first imports the SDK module once and freezes it, and bundles are imported with that one
 * SDK. Only a clean success counts there: a bundle the child calls untrusted (it threw, or something threw meanwhile)
 * is imported again in a child of its own with an SDK nobody froze, with the same time limit, so its outcome is what
 * the runtime's sandbox (one process per tool) gives.
 */
export async function importAll(
  jobs: readonly Job[],
  script: string,
  options: {
    readonly timeoutMs: number;
    readonly cwd: string;
    readonly copy: Copy;
    readonly sdkUrl?: string | undefined;
    readonly launch?: Launch | undefined;
    readonly alsoReadable?: readonly string[];
  },
): Promise<Map<string, Outcome>> {
  const { timeoutMs, cwd, copy, sdkUrl, launch } = options;
  const startTimeoutMs = Math.max(timeoutMs, 10_000);
  const start = (addons = false) =>
    Session.start(script, {
      timeoutMs: startTimeoutMs,
      cwd,
      readable: copy.base,
      alsoReadable: options.alsoReadable,
      launch,
      addons,
    });
  const request = (job: Job, sharedSdk: boolean) => ({
    type: "import" as const,
    module: job.module,
    label: job.label,
    url: job.url,
    base: copy.base,
    baseUrl: copy.baseUrl,
    sharedSdk,
  });
  const outcomes = new Map<string, Outcome>();
  const queue = [...jobs];
  const children = Math.max(
    1,
    Math.min(MAX_CHILDREN, availableParallelism(), Math.ceil(jobs.length / MODULES_PER_CHILD)),
  );

  /** One module in a fresh child of its own (which is killed after): exactly what a sandbox child does at run time. */
  const alone = async (job: Job): Promise<Outcome> => {
    await job.place?.();
    let session: Session;
    try {
      session = await start(job.alone === true && job.addons === true);
    } catch (thrown) {
      return { type: "ended", detail: (thrown as Error).message };
    }
    try {
      const reply = await session.run(request(job, false), timeoutMs);
      if (reply.type === "imported" || reply.type === "threw" || reply.type === "untrusted") {
        if (reply.module !== job.module || reply.type === "untrusted")
          return {
            type: "ended",
            detail: `the evaluation process answered ${reply.module !== job.module ? "for another module" : "out of turn"}`,
          };
        return reply.type === "imported"
          ? { type: "imported", exports: reply.exports, sdk: "own" }
          : { type: "threw", message: reply.message, exitCode: reply.exitCode, rule: reply.rule, stack: reply.stack };
      }
      return reply;
    } finally {
      session.kill();
    }
  };

  const worker = async () => {
    let session: Session | undefined;
    let share = sdkUrl !== undefined;
    try {
      let retry: Job | undefined;
      for (let job = queue.shift(); job !== undefined; job = retry ?? queue.shift()) {
        retry = undefined;
        if (job.alone === true) {
          outcomes.set(job.module, await alone(job));
          continue;
        }
        if (session && session.retained >= RETAINED_PER_CHILD) {
          session.kill();
          session = undefined;
        }
        if (!session) {
          try {
            session = await start();
          } catch (thrown) {
            outcomes.set(job.module, { type: "ended", detail: (thrown as Error).message });
            continue;
          }
          if (share && sdkUrl !== undefined) {
            try {
              if (!(await session.shareSdk(sdkUrl, startTimeoutMs))) share = false;
            } catch {
              // Sharing is only a shortcut: this worker goes on without it, in a new child.
              session = undefined;
              share = false;
              retry = job;
              continue;
            }
          }
        }
        if (!session.sharesSdk) {
          // Without a shared SDK every module gets a child of its own: an SDK one module changed must not be another's.
          outcomes.set(job.module, await alone(job));
          continue;
        }
        const fresh = session.fresh;
        await job.place?.();
        const reply = await session.run(request(job, true), timeoutMs);
        if (reply.type === "untrusted" && reply.module === job.module) {
          outcomes.set(job.module, await alone(job));
          continue;
        }
        if (reply.type === "imported" || reply.type === "threw" || reply.type === "untrusted") {
          if (reply.module !== job.module || reply.type === "untrusted") {
            session.kill();
            session = undefined;
            outcomes.set(job.module, {
              type: "ended",
              detail: `the evaluation process answered ${reply.module !== job.module ? "for another module" : "out of turn"}`,
            });
            continue;
          }
          outcomes.set(
            job.module,
            reply.type === "imported"
              ? { type: "imported", exports: reply.exports, sdk: "shared" }
              : {
                  type: "threw",
                  message: reply.message,
                  exitCode: reply.exitCode,
                  rule: reply.rule,
                  stack: reply.stack,
                },
          );
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
