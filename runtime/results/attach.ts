import { join } from "node:path";
import { ResultPlans } from "./engine.js";
import { createFileRecoveryStore, type RecoveryStore } from "./store.js";

/** Where the default recovery store keeps exact results: outside the build folder, which every build replaces. */
export function defaultRecoveryDir(root: string): string {
  return join(root, ".cave-state", "recovery");
}

const byRoot = new Map<string, ResultPlans>();

/**
 * The result-plan executor for a project root, made on first use (so a runtime whose plans are all
 * inline never touches the state folder or loads the tokenizer) and shared by every runtime on that
 * root: they share its state folder, so the same store and signing key.
 */
export function resultPlansOf(root: string): ResultPlans {
  let plans = byRoot.get(root);
  if (plans === undefined) {
    plans = new ResultPlans({ root, store: createFileRecoveryStore(defaultRecoveryDir(root)) });
    byRoot.set(root, plans);
  }
  return plans;
}

/** Makes `store` the recovery store of every runtime on `root` from now on (for hosts with their own storage, and tests). */
export function useRecoveryStore(root: string, store: RecoveryStore): void {
  byRoot.set(root, new ResultPlans({ root, store }));
}
