import { isRetryable, isSpeculable, type Effect } from "../../src/contract/effects.js";
import { canonicalJson } from "../../src/contract/hash.js";
import type { LockedTool, RequestedResult } from "../../src/contract/lock.js";

/** Plain words for the locked facts, shared by cave diff and cave explain so both say the same thing. */

export const EFFECT_MEANING: Readonly<Record<Effect, string>> = {
  read: "no durable side effect",
  write: "mutates something",
  idempotent: "has side effects, safe to retry with the same arguments",
  external: "leaves the process",
};

/** What the runtime does with a tool of this effect, one phrase each. */
export function effectConsequences(effect: Effect): { speculable: string; retryable: string; fixture: string } {
  return {
    speculable: isSpeculable(effect) ? "may be run speculatively" : "never run speculatively",
    retryable: isRetryable(effect) ? "retried on a transient failure with the same arguments" : "never retried",
    fixture: effect === "read" ? "runs in fixture mode" : "blocked in fixture mode",
  };
}

/** read → anything, anything → external, idempotent → write: the tool may now do something it could not. */
export function isEscalation(from: Effect, to: Effect): boolean {
  if (from === to) return false;
  return from === "read" || to === "external" || (from === "idempotent" && to === "write");
}

const POLICY_MEANING: Readonly<Record<string, string>> = {
  auto: "the locked plan decides between inline, paging, compression and exact recovery",
  inline: "the whole validated result enters the model's context",
  page: "the model gets bounded pages, the first one and a cursor",
  compress: "the model gets the output of a locked compression transform",
  exact_ccr: "the exact bytes are stored first, then the model gets a short view with a reference",
};

/** `page (the model gets bounded pages...)`, or the artifact's rule. */
export function describeRequested(requested: RequestedResult): string {
  if (requested.policy === "artifact") {
    const a = requested.artifact;
    const recovery = a.recovery === "exact_ccr" ? "with exact recovery" : "without recovery";
    return `artifact: inline up to ${a.maxInlineTokens} tokens, past that ${a.strategy}, ${recovery}`;
  }
  const meaning = POLICY_MEANING[requested.policy];
  return meaning === undefined ? requested.policy : `${requested.policy} (${meaning})`;
}

/** A short label for a requested policy, for "a → b" lines. */
export function requestedLabel(requested: RequestedResult): string {
  if (requested.policy !== "artifact") return requested.policy;
  const a = requested.artifact;
  return `artifact(${a.strategy}, ${a.maxInlineTokens} tokens, recovery ${a.recovery})`;
}

/**
 * A locked result plan in words. Plans are written by the planner; this reads the fields a plan
 * names itself by (kind or strategy, and its reason) and falls back to its canonical JSON.
 */
export function describePlan(plan: unknown): string {
  if (typeof plan !== "object" || plan === null || Array.isArray(plan)) return canonicalJson(plan ?? null);
  const p = plan as Record<string, unknown>;
  const name = [p.kind, p.strategy, p.policy].find((v): v is string => typeof v === "string");
  const { reason, ...rest } = p;
  const head = name ?? canonicalJson(rest);
  const facts = Object.keys(rest)
    .filter((k) => !["kind", "strategy", "policy"].includes(k) && (typeof rest[k] === "number" || typeof rest[k] === "string" || typeof rest[k] === "boolean"))
    .sort()
    .map((k) => `${k} ${String(rest[k])}`);
  const body = name !== undefined && facts.length > 0 ? `${head} (${facts.join(", ")})` : head;
  return typeof reason === "string" ? `${body}: ${reason}` : body;
}

/** The planned result of a tool, when the lock carries one. */
export function lockedPlan(tool: LockedTool): unknown {
  return (tool.result as unknown as Record<string, unknown>).plan;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Tool and agent names, env names: quoted as data. */
export function quote(name: string): string {
  return JSON.stringify(name);
}

export function describeTimeout(ms: number): string {
  if (ms % 60_000 === 0) return `${ms} ms (${ms / 60_000} min)`;
  if (ms % 1000 === 0) return `${ms} ms (${ms / 1000} s)`;
  return `${ms} ms`;
}
