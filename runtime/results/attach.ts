import { join } from "node:path";
import { importResultEngine } from "../loading/import-module.js";
import type { ResultPlans } from "./engine.js";
import type { RecoveryStore } from "./store.js";

/** Where the default recovery store keeps exact results: outside the build folder, which every build replaces. */
export function defaultRecoveryDir(root: string): string {
  return join(root, ".cave-state", "recovery");
}

const byRoot = new Map<string, Promise<ResultPlans>>();

/**
 * The result-plan executor for a project root, made on first use (so a runtime whose results all
 * enter context as they are never loads the plan engine, touches the state folder or loads the
 * tokenizer) and shared by every runtime on that root: they share its state folder, so the same store
 * and signing key. One registry in a process: the bundled cave/runtime entry holds this module, and the copy of it
 * cave/compiler's modules import is a facade over the bundle's (scripts/bundle-runtime.mjs).
 */
export function resultPlansOf(root: string): Promise<ResultPlans> {
  let plans = byRoot.get(root);
  if (plans === undefined) {
    plans = plansFor(root, undefined);
    byRoot.set(root, plans);
  }
  return plans;
}

/** Makes `store` the recovery store of every runtime on `root` from now on (for hosts with their own storage, and tests). */
export function useRecoveryStore(root: string, store: RecoveryStore): void {
  byRoot.set(root, plansFor(root, store));
}

/** A result-plan executor over `store` that no other runtime shares (a runtime with a journal keeps its results there). */
export function resultPlansOver(root: string, store: RecoveryStore): Promise<ResultPlans> {
  return plansFor(root, store);
}

async function plansFor(root: string, store: RecoveryStore | undefined): Promise<ResultPlans> {
  const { ResultPlans } = await importResultEngine();
  return new ResultPlans({
    root,
    store: store ?? (await import("./store.js")).createFileRecoveryStore(defaultRecoveryDir(root)),
  });
}
