import type { ExportReport } from "../evaluate/protocol.js";
import type { ValidatorCacheEntry } from "../validators/pass.js";
import { NO_CACHE, PassCacheFile, type PassCache } from "./pass-cache.js";

/** The per-pass caches of one build: what a pass computed from content that has not changed is not computed again. */
export interface PassCaches {
  readonly evaluate: PassCache<readonly ExportReport[]>;
  readonly validators: PassCache<ValidatorCacheEntry>;
  /** Records what this build used and made; only a writing build writes. */
  save(): void;
}

/**
 * The per-pass caches of a project: read by every build that uses the cache, written only by builds that write
 * (build({ write: true })), never touched by build({ cache: false }).
 */
export function openPassCaches(
  root: string,
  options: { readonly identity: string; readonly write: boolean; readonly enabled: boolean },
): PassCaches {
  if (!options.enabled) return { evaluate: NO_CACHE, validators: NO_CACHE, save: () => undefined };
  const evaluate = new PassCacheFile<readonly ExportReport[]>(root, "evaluate", options);
  const validators = new PassCacheFile<ValidatorCacheEntry>(root, "validators", options);
  return {
    evaluate,
    validators,
    save() {
      evaluate.save();
      validators.save();
    },
  };
}
