import type { ResultPlan } from "../../src/contract/lock.js";

type Problem = readonly [path: string, expected: string];

const HASH = /^sha256-[0-9a-f]{64}$/;
const STRATEGIES = ["inline", "page", "compress", "exact_ccr"];
const PLAN_KEYS = [
  "strategy",
  "reason",
  "bound",
  "inlineUpToTokens",
  "pageTokens",
  "transform",
  "recovery",
  "tokenizer",
];
/** PLAN_KEYS in code-unit order, the order cave build writes them in. */
const SORTED_PLAN_KEYS = [...PLAN_KEYS].sort();

/**
 * Shape problems of a lock's `result.plan` (the lock's integrity says it was not edited; this says it
 * is a plan this runtime can follow). Each problem is the path and what it must be.
 */
export function planShapeProblems(plan: unknown, at: string): Problem[] {
  const out: Problem[] = [];
  if (!isRecord(plan)) return [[at, "an object"]];
  const present = Object.keys(plan);
  if (!sameKeys(present, SORTED_PLAN_KEYS)) {
    for (const key of PLAN_KEYS) if (!(key in plan)) out.push([`${at}.${key}`, "present"]);
    for (const key of present) if (!PLAN_KEYS.includes(key)) out.push([`${at}.${key}`, "absent (unknown key)"]);
  }
  const p = plan as Partial<Record<keyof ResultPlan, unknown>>;
  if (!STRATEGIES.includes(p.strategy as string)) out.push([`${at}.strategy`, STRATEGIES.join(", ")]);
  if (typeof p.reason !== "string" || p.reason === "") out.push([`${at}.reason`, "a non-empty string"]);
  if (
    !isRecord(p.bound) ||
    !(p.bound.kind === "bounded"
      ? Number.isSafeInteger(p.bound.tokens)
      : p.bound.kind === "unbounded" && typeof p.bound.path === "string")
  ) {
    out.push([`${at}.bound`, '{ kind: "bounded", tokens } or { kind: "unbounded", path, why }']);
  }
  const counts = p.strategy !== "inline";
  if (!(p.inlineUpToTokens === null || positive(p.inlineUpToTokens)))
    out.push([`${at}.inlineUpToTokens`, "a positive integer or null"]);
  if (!(p.pageTokens === null || positive(p.pageTokens))) out.push([`${at}.pageTokens`, "a positive integer or null"]);
  if ((p.strategy === "page" || p.strategy === "exact_ccr" || p.recovery === "exact_ccr") && !positive(p.pageTokens))
    out.push([`${at}.pageTokens`, "a positive integer for a plan that pages"]);
  if (p.recovery !== "exact_ccr" && p.recovery !== "none") out.push([`${at}.recovery`, "exact_ccr or none"]);
  if (p.strategy === "compress") {
    const t = p.transform;
    if (
      !isRecord(t) ||
      typeof t.id !== "string" ||
      !positive(t.version) ||
      typeof t.lossless !== "boolean" ||
      typeof t.module !== "string" ||
      typeof t.sha256 !== "string" ||
      !HASH.test(t.sha256)
    ) {
      out.push([`${at}.transform`, "{ id, version, lossless, module, sha256 } for a compress plan"]);
    } else if (t.module.startsWith("/") || t.module.split("/").some((part) => part === ".." || part === "")) {
      out.push([`${at}.transform.module`, "a relative path inside the project"]);
    } else if (!t.lossless && p.recovery !== "exact_ccr")
      out.push([`${at}.recovery`, "exact_ccr for a lossy transform"]);
  } else if (p.transform !== null) out.push([`${at}.transform`, "null unless the strategy is compress"]);
  const tokenizer = p.tokenizer;
  if (
    tokenizer !== null &&
    !(isRecord(tokenizer) && typeof tokenizer.id === "string" && typeof tokenizer.version === "string")
  )
    out.push([`${at}.tokenizer`, "{ id, version } or null"]);
  if (counts && tokenizer === null && (p.inlineUpToTokens !== null || p.pageTokens !== null))
    out.push([`${at}.tokenizer`, "{ id, version } for a plan that counts tokens"]);
  return out;
}

/** Exactly these keys in this order (a plan from cave build): the common case, checked without searching. */
function sameKeys(present: readonly string[], expected: readonly string[]): boolean {
  if (present.length !== expected.length) return false;
  for (let i = 0; i < present.length; i++) if (present[i] !== expected[i]) return false;
  return true;
}

function positive(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
