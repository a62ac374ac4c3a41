import { isRetryable, isSpeculable, type Effect } from "../../src/contract/effects.js";
import type { LockedTool, LockedTransform, RequestedResult, ResultPlan, SizeBound } from "../../src/contract/lock.js";

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

/** A plan in a few words: "page past 1200 tokens, pages of 800 tokens, exact recovery". */
export function planLabel(plan: ResultPlan): string {
  const parts: string[] = [
    plan.strategy === "inline"
      ? "inline"
      : plan.inlineUpToTokens === null
        ? `${plan.strategy} always`
        : `${plan.strategy} past ${plan.inlineUpToTokens} tokens`,
  ];
  if (plan.strategy !== "inline" && plan.pageTokens !== null) parts.push(`pages of ${plan.pageTokens} tokens`);
  if (plan.transform !== null) parts.push(`transform ${transformLabel(plan.transform)}`);
  if (plan.recovery === "exact_ccr") parts.push("exact recovery");
  return parts.join(", ");
}

export function transformLabel(t: LockedTransform): string {
  return `${t.id}@${t.version} (${t.lossless ? "lossless" : "lossy"})`;
}

/** "at most 120 tokens", or "unbounded at /properties/body (no maxLength)". */
export function boundLabel(bound: SizeBound): string {
  return bound.kind === "bounded"
    ? `at most ${bound.tokens} tokens`
    : `unbounded at ${bound.path === "" ? "the root" : bound.path} (${bound.why})`;
}

/** The planned result of a tool, when the lock carries one (a lock of another shape may not). */
export function lockedPlan(tool: LockedTool): ResultPlan | undefined {
  return (tool.result as { plan?: ResultPlan }).plan;
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

/**
 * The package a source-graph file belongs to: `cave` for the SDK (staged under cave/), the package
 * name for a file under node_modules (the innermost one), or null for the project's own files.
 */
export function packageOf(path: string): string | null {
  if (path.startsWith("cave/")) return "cave";
  const parts = path.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at === -1 || at + 1 >= parts.length) return null;
  const name = parts[at + 1]!;
  return name.startsWith("@") && at + 2 < parts.length ? `${name}/${parts[at + 2]}` : name;
}

/** A source graph split into the project's files (listed) and dependency packages (counted), both sorted. */
export function sourceGroups(files: readonly string[]): { own: string[]; packages: Array<[string, number]> } {
  const own: string[] = [];
  const packages = new Map<string, number>();
  for (const file of files) {
    const pkg = packageOf(file);
    if (pkg === null) own.push(file);
    else packages.set(pkg, (packages.get(pkg) ?? 0) + 1);
  }
  return { own: own.sort(), packages: [...packages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
}
