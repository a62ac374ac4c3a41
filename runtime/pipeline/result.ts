import type { ResultPlan } from "../../src/contract/lock.js";
import { TOKENIZER } from "../../src/contract/results/tokenizer.js";
import type { DataSnapshot } from "./json-data.js";
import type { CallState, Failure, Success } from "./state.js";

/**
 * Stage 9, result: what of the validated result enters context, as the locked result plan says
 * (inline, page, compress, exact_ccr: runtime/results). A plan that cannot be carried out safely
 * (the exact result could not be stored, a transform does not match the lock) fails the call with
 * its code; nothing is replaced by a reference that could not be honoured. Synchronous when the
 * result enters context as is without counting a token (most calls).
 */
export function result(state: CallState, data: DataSnapshot): Success | Failure | Promise<Success | Failure> {
  const plan = state.tool!.result.plan;
  if (inlineUncounted(plan, data)) return { ok: true, content: data.value, result: data };
  return applyPlan(state, data);
}

/**
 * What ResultPlans.apply decides before it counts anything: an inline plan keeps the result, and so
 * does a plan whose inline limit (in tokens of its pinned tokenizer) is at least the result's UTF-8
 * bytes, since every token covers at least one byte. A plan pinned to another tokenizer goes to apply,
 * which refuses it.
 */
function inlineUncounted(plan: ResultPlan, data: DataSnapshot): boolean {
  if (plan.strategy === "inline") return true;
  const limit = plan.inlineUpToTokens;
  // The bound first: most results are far under the limit, and then their text need not be written yet.
  if (limit === null || (data.bytesAtMost > limit && data.bytes > limit)) return false;
  return (
    plan.tokenizer === null || (plan.tokenizer.id === TOKENIZER.id && plan.tokenizer.version === TOKENIZER.version)
  );
}

async function applyPlan(state: CallState, data: DataSnapshot): Promise<Success | Failure> {
  const outcome = await (await state.engine.plans()).apply(state.tool!.result.plan, data.value, data.text, {
    lockIntegrity: state.engine.lock.integrity,
    tool: state.name,
    run: state.run.id,
  });
  if (!outcome.ok) return { code: outcome.code, message: `tool "${state.name}": ${outcome.message}` };
  return { ok: true, content: outcome.content, result: data };
}
