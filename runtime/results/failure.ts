import type { RESULTS_RUNTIME_CODES } from "../../src/contract/codes/results.js";

/** A run-time result code. */
export type ResultsRuntimeCode = keyof typeof RESULTS_RUNTIME_CODES;

/** Why a result could not be given to the model: data with a stable code, never a throw out of the stage. */
export interface ResultFailure {
  readonly ok: false;
  readonly code: ResultsRuntimeCode;
  readonly message: string;
}

export function failure(code: ResultsRuntimeCode, message: string): ResultFailure {
  return { ok: false, code, message };
}
