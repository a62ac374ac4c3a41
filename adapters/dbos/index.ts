/**
 * cave/dbos: cave calls as steps of DBOS workflows (@dbos-inc/dbos-sdk 5). DBOS schedules and
 * recovers the workflow; cave runs each call (validation, effects, repeat guard, receipts) and
 * records it in the runtime's journal, so a workflow that DBOS recovers in another process resumes
 * its cave run through the journal (docs/durable.md, "DBOS workflows").
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import type { CallOptions, CallOutcome, Run, RunOptions, Runtime } from "../../runtime/index.js";
import { checkKeys } from "../shared/outcome.js";

export interface WorkflowRunOptions {
  /** Overrides the runtime's budget for this run (the whole workflow, across recoveries). */
  readonly budget?: RunOptions["budget"];
  /** A recovered workflow whose run was recorded under another lock: as startRun's lockChange. */
  readonly lockChange?: RunOptions["lockChange"];
}

export interface WorkflowRun {
  /** The cave run: its id is the workflow's id, so every receipt names the workflow. */
  readonly run: Run;
  /** Calls a locked tool as one DBOS step (named `cave:<tool>`, DBOS retries off); never throws for a tool's failure. */
  call(name: string, args: unknown, options?: CallOptions): Promise<CallOutcome>;
  /** Marks the run finished in the journal (retention may then expire it) and releases its lease. */
  finish(): Promise<void>;
}

const KEYS = ["budget", "lockChange"] as const;

/**
 * The cave run of the DBOS workflow this is called in (call it in the workflow function, not in a
 * step). Each call is a DBOS step with retries off: cave is the only place calls are retried, by
 * their effect. A step DBOS already checkpointed is replayed by DBOS, and cave replays it from its
 * journal too (nothing runs), so the run's call keys, budget and repeat guard are the same in every
 * execution of the workflow; a step that was in flight when the process died is run again by DBOS
 * and answered by cave as any resumed call: a read runs again, an idempotent tool runs again with the
 * same idempotency key, a write or external call answers EFFECT_UNKNOWN.
 */
export function workflowRun(runtime: Runtime, options?: WorkflowRunOptions): WorkflowRun {
  const o = checkKeys(options, KEYS, "workflowRun()") as WorkflowRunOptions;
  if (runtime.journal === undefined) {
    throw new TypeError(
      'workflowRun(): the runtime has no journal, so a recovered workflow could not resume its calls; create it with createRuntime({ journal: "postgres:<ENV_VAR>" }) (the database DBOS uses fits)',
    );
  }
  const workflowID = DBOS.workflowID;
  if (!DBOS.isInWorkflow() || workflowID === undefined) {
    throw new TypeError(
      "workflowRun(): call it inside a DBOS workflow function (registered with DBOS.registerWorkflow or @DBOS.workflow()), not in a step or outside a workflow",
    );
  }
  const run = runtime.startRun({
    id: workflowID,
    ...(o.budget === undefined ? {} : { budget: o.budget }),
    ...(o.lockChange === undefined ? {} : { lockChange: o.lockChange }),
  });
  return Object.freeze({
    run,
    call: async (name: string, args: unknown, callOptions?: CallOptions): Promise<CallOutcome> => {
      let ran = false;
      const outcome = await DBOS.runStep(
        async () => {
          ran = true;
          return run.call(name, args, callOptions);
        },
        { name: `cave:${name}`, retriesAllowed: false },
      );
      // DBOS answered from its checkpoint without running the step: the call is replayed from the
      // journal as well (nothing runs), so the calls after it get the keys they had before.
      if (!ran) await run.call(name, args, { ...callOptions, replayOnly: true });
      return outcome;
    },
    finish: () => run.finish(),
  });
}
