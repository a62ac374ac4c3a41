import type { DataSnapshot } from "../json-data.js";
import { resultPlansOf } from "../results/attach.js";
import type { CallState, Failure, Success } from "./state.js";

/**
 * Stage 9, result: what of the validated result enters context, as the locked result plan says
 * (inline, page, compress, exact_ccr: runtime/results). A plan that cannot be carried out safely
 * (the exact result could not be stored, a transform does not match the lock) fails the call with
 * its code; nothing is replaced by a reference that could not be honoured.
 */
export async function result(state: CallState, data: DataSnapshot): Promise<Success | Failure> {
  const plan = state.tool!.result.plan;
  if (plan.strategy === "inline") return { ok: true, content: data.value, resultSha256: data.sha256 };
  const outcome = await resultPlansOf(state.engine.root).apply(plan, data.value, data.text);
  if (!outcome.ok) return { code: outcome.code, message: `tool "${state.name}": ${outcome.message}` };
  return { ok: true, content: outcome.content, resultSha256: data.sha256 };
}
