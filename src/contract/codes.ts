import type { CodeEntry } from "./codes/types.js";
import { SDK_CODES } from "./codes/sdk.js";
import { DISCOVER_CODES } from "./codes/discover.js";
import { EMIT_CODES } from "./codes/emit.js";
import { ANALYSE_CODES } from "./codes/analyse.js";
import { LOCK_CODES } from "./codes/lock.js";
import { RUNTIME_CODES } from "./codes/runtime.js";
import { VALIDATORS_CODES } from "./codes/validators.js";
import { STAGE_CODES } from "./codes/stage.js";
import { EVALUATE_CODES } from "./codes/evaluate.js";
import { RESULTS_CODES } from "./codes/results.js";
import { JOURNAL_CLI_CODES } from "./codes/journal.js";

export type { CodeEntry } from "./codes/types.js";

/**
 * The one registry of stable codes. Numbered by layer/pass (1xxx authoring rules, 2xxx and up the
 * compiler's passes); a code is never reused. docs/diagnostics.md is generated from this object.
 */
export const CODES = {
  ...SDK_CODES,
  ...DISCOVER_CODES,
  ...EMIT_CODES,
  ...ANALYSE_CODES,
  ...LOCK_CODES,
  ...RUNTIME_CODES,
  ...VALIDATORS_CODES,
  ...STAGE_CODES,
  ...EVALUATE_CODES,
  ...RESULTS_CODES,
  ...JOURNAL_CLI_CODES,
} as const satisfies Record<string, CodeEntry>;

export type CaveCode = keyof typeof CODES;
