import type { CaveCode } from "../../src/contract/codes.js";

/** Why a schema gets no validator: a stable code, what is wrong (naming the place in the schema), and what to do. */
export interface Refusal {
  readonly code: CaveCode;
  readonly problem: string;
  readonly hint: string;
}

export function refusal(code: CaveCode, problem: string, hint: string): Refusal {
  return { code, problem, hint };
}
