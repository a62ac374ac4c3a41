import { EFFECTS, isRetryable, isSpeculable, type Effect } from "../../src/contract/effects.js";
import { ENV_NAME_PATTERN, MAX_TIMEOUT_MS, SEMANTICS_HASH_PATTERN, TOOL_NAME_PATTERN } from "../../src/contract/names.js";
import { planShapeProblems } from "../results/check-plan.js";

/**
 * The structural check of a v1 lock, the runtime's copy of docs/cave.lock.schema.json written as
 * code (the runtime carries no schema compiler). It returns the first problem as "<path>: <what>",
 * or undefined when the lock has the v1 shape. Integrity is checked before this, so a failure here
 * means a compiler bug or a hand-made lock, never a stray edit.
 */
export function checkLockShape(lock: Record<string, unknown>): string | undefined {
  const problems: string[] = [];
  const c = new Checker(problems);
  c.keys(lock, "", ["lockfileVersion", "integrity", "buildDir", "sdk", "agents", "tools"], true);
  c.relativePath(lock.buildDir, "buildDir");
  if (lock.sdk !== null && c.keys(lock.sdk, "sdk", ["id", "sha256", "files"], true)) {
    const sdk = lock.sdk as Record<string, unknown>;
    if (typeof sdk.id !== "string" || !/^cave@\S+$/.test(sdk.id)) c.problem("sdk.id", "cave@<version>");
    if (typeof sdk.sha256 !== "string" || !/^sha256-[0-9a-f]{64}$/.test(sdk.sha256)) c.problem("sdk.sha256", "a sha256-<hex> hash");
    c.record(sdk.files, "sdk.files");
  }
  if (c.record(lock.agents, "agents")) {
    for (const [name, agent] of Object.entries(lock.agents as Record<string, unknown>)) {
      const at = `agents.${name}`;
      c.name(name, at);
      if (!c.keys(agent, at, ["module", "export", "description", "tools"], true)) continue;
      const a = agent as Record<string, unknown>;
      c.relativePath(a.module, `${at}.module`);
      c.nonEmptyString(a.export, `${at}.export`);
      if (a.description !== null) c.nonEmptyString(a.description, `${at}.description`, true);
      c.sortedNames(a.tools, `${at}.tools`);
    }
  }
  if (c.record(lock.tools, "tools")) {
    const tools = lock.tools as Record<string, unknown>;
    for (const [name, tool] of Object.entries(tools)) checkTool(c, name, tool);
    // Names that point at other tools must point inside this lock.
    const references: Array<[string, unknown]> = [
      ...Object.entries(tools).map(([name, t]): [string, unknown] => [`tools.${name}.nestedTools`, isRecord(t) ? t.nestedTools : undefined]),
      ...(isRecord(lock.agents) ? Object.entries(lock.agents).map(([name, a]): [string, unknown] => [`agents.${name}.tools`, isRecord(a) ? a.tools : undefined]) : []),
    ];
    for (const [at, names] of references) {
      if (!Array.isArray(names)) continue;
      for (const n of names) if (typeof n === "string" && !Object.hasOwn(tools, n)) c.problem(at, `names of locked tools (${JSON.stringify(n)} is not in the lock)`);
    }
  }
  return problems[0];
}

const TOOL_KEYS = ["module", "export", "description", "effect", "speculable", "retryable", "timeoutMs", "allowRepeat", "sandbox", "nestedTools", "source", "input", "output", "result"];
const RESULT_POLICIES = ["auto", "inline", "page", "compress", "exact_ccr"];

function checkTool(c: Checker, name: string, tool: unknown): void {
  const at = `tools.${name}`;
  c.name(name, at);
  if (!c.keys(tool, at, TOOL_KEYS, true)) return;
  const t = tool as Record<string, unknown>;
  c.relativePath(t.module, `${at}.module`);
  c.nonEmptyString(t.export, `${at}.export`);
  c.nonEmptyString(t.description, `${at}.description`);
  if (!(EFFECTS as readonly unknown[]).includes(t.effect)) c.problem(`${at}.effect`, `one of ${EFFECTS.join(", ")}`);
  else {
    // The flags are consequences of the effect; a lock that disagrees would make the runtime guess.
    if (t.speculable !== isSpeculable(t.effect as Effect)) c.problem(`${at}.speculable`, `${isSpeculable(t.effect as Effect)} for effect ${String(t.effect)}`);
    if (t.retryable !== isRetryable(t.effect as Effect)) c.problem(`${at}.retryable`, `${isRetryable(t.effect as Effect)} for effect ${String(t.effect)}`);
  }
  if (!(Number.isSafeInteger(t.timeoutMs) && (t.timeoutMs as number) >= 1 && (t.timeoutMs as number) <= MAX_TIMEOUT_MS)) c.problem(`${at}.timeoutMs`, `an integer from 1 to ${MAX_TIMEOUT_MS}`);
  c.boolean(t.allowRepeat, `${at}.allowRepeat`);
  if (c.keys(t.sandbox, `${at}.sandbox`, ["mode", "network", "env"], true)) {
    const s = t.sandbox as Record<string, unknown>;
    if (s.mode !== "required" && s.mode !== "none") c.problem(`${at}.sandbox.mode`, `"required" or "none"`);
    if (s.network !== false) c.problem(`${at}.sandbox.network`, "false");
    if (!Array.isArray(s.env) || !s.env.every((e) => typeof e === "string" && ENV_NAME_PATTERN.test(e)) || new Set(s.env).size !== s.env.length) c.problem(`${at}.sandbox.env`, "an array of distinct environment names");
  }
  c.sortedNames(t.nestedTools, `${at}.nestedTools`);
  if (c.keys(t.source, `${at}.source`, ["bundle", "sha256", "files"], true)) {
    const s = t.source as Record<string, unknown>;
    c.relativePath(s.bundle, `${at}.source.bundle`);
    c.hash(s.sha256, `${at}.source.sha256`);
    if (c.record(s.files, `${at}.source.files`)) {
      // The longest list in a lock (every file of every staged graph), and one the runtime never loads
      // anything by: its hashes get a cheap form check, and paths are only built for a problem.
      const files = s.files as Record<string, unknown>;
      for (const file in files) {
        const hash = files[file];
        if (typeof hash !== "string" || hash.length !== 71 || !hash.startsWith("sha256-")) c.problem(`${at}.source.files.${file}`, "a sha256-<64 hex> hash");
      }
    }
  }
  for (const side of ["input", "output"] as const) checkSide(c, t[side], `${at}.${side}`);
  if (c.keys(t.result, `${at}.result`, ["requested", "plan"], true)) {
    for (const [path, expected] of planShapeProblems((t.result as Record<string, unknown>).plan, `${at}.result.plan`)) c.problem(path, expected);
    const requested = (t.result as Record<string, unknown>).requested;
    if (c.record(requested, `${at}.result.requested`)) {
      const r = requested as Record<string, unknown>;
      if (r.policy === "artifact") {
        if (c.keys(r.artifact, `${at}.result.requested.artifact`, ["strategy", "maxInlineTokens", "recovery"], true)) {
          const a = r.artifact as Record<string, unknown>;
          if (!["page", "compress", "exact_ccr"].includes(a.strategy as string)) c.problem(`${at}.result.requested.artifact.strategy`, "page, compress or exact_ccr");
          if (!(Number.isSafeInteger(a.maxInlineTokens) && (a.maxInlineTokens as number) >= 1)) c.problem(`${at}.result.requested.artifact.maxInlineTokens`, "a positive integer");
          if (a.recovery !== "exact_ccr" && a.recovery !== "none") c.problem(`${at}.result.requested.artifact.recovery`, "exact_ccr or none");
        }
        if (Object.keys(r).some((k) => k !== "policy" && k !== "artifact")) c.problem(`${at}.result.requested`, "an object with policy and artifact only");
      } else if (!RESULT_POLICIES.includes(r.policy as string) || Object.keys(r).length !== 1) c.problem(`${at}.result.requested`, `{ policy } with one of ${RESULT_POLICIES.join(", ")}, or { policy: "artifact", artifact }`);
    }
  }
}

function checkSide(c: Checker, side: unknown, at: string): void {
  if (side === null) return;
  if (!c.keys(side, at, ["jsonSchema", "sha256", "validation"], true)) return;
  const s = side as Record<string, unknown>;
  if (s.jsonSchema !== null && !isRecord(s.jsonSchema)) c.problem(`${at}.jsonSchema`, "an object or null");
  if (s.sha256 !== null) c.hash(s.sha256, `${at}.sha256`);
  if ((s.jsonSchema === null) !== (s.sha256 === null)) c.problem(`${at}.sha256`, "null exactly when jsonSchema is null");
  const v = s.validation;
  if (!isRecord(v)) return c.problem(`${at}.validation`, "an object");
  if (v.kind === "precompiled") {
    if (c.keys(v, `${at}.validation`, ["kind", "module", "sha256"], true)) {
      c.relativePath(v.module, `${at}.validation.module`);
      c.hash(v.sha256, `${at}.validation.sha256`);
    }
  } else if (v.kind === "opaque") {
    if (c.keys(v, `${at}.validation`, ["kind", "vendor", "semanticsSHA256"], true)) {
      c.nonEmptyString(v.vendor, `${at}.validation.vendor`);
      if (typeof v.semanticsSHA256 !== "string" || !SEMANTICS_HASH_PATTERN.test(v.semanticsSHA256)) c.problem(`${at}.validation.semanticsSHA256`, "64 lowercase hex characters");
    }
  } else c.problem(`${at}.validation.kind`, `"precompiled" or "opaque"`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `sha256-` and 64 lowercase hex digits. A loop, not a regex: a lock holds thousands of them and this is several times faster. */
function isHash(value: unknown): boolean {
  if (typeof value !== "string" || value.length !== 71 || !value.startsWith("sha256-")) return false;
  for (let i = 7; i < 71; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

class Checker {
  constructor(private readonly problems: string[]) {}

  problem(at: string, expected: string): void {
    this.problems.push(`${at === "" ? "(top level)" : at} must be ${expected}`);
  }

  /** An object with all `required` keys and, when closed, no others. */
  keys(value: unknown, at: string, required: readonly string[], closed: boolean): boolean {
    if (!isRecord(value)) {
      this.problem(at, "an object");
      return false;
    }
    for (const key of required) if (!(key in value)) this.problem(at === "" ? key : `${at}.${key}`, "present");
    if (closed) for (const key of Object.keys(value)) if (!required.includes(key)) this.problem(at === "" ? key : `${at}.${key}`, "absent (unknown key)");
    return true;
  }

  record(value: unknown, at: string): boolean {
    if (isRecord(value)) return true;
    this.problem(at, "an object");
    return false;
  }

  name(value: string, at: string): void {
    if (!TOOL_NAME_PATTERN.test(value)) this.problem(at, `named by ${TOOL_NAME_PATTERN}`);
  }

  sortedNames(value: unknown, at: string): void {
    const ok = Array.isArray(value) && value.every((n, i) => typeof n === "string" && TOOL_NAME_PATTERN.test(n) && (i === 0 || (value[i - 1] as string) < n));
    if (!ok) this.problem(at, "a sorted array of distinct tool names");
  }

  nonEmptyString(value: unknown, at: string, orNull = false): void {
    if (typeof value !== "string" || value === "") this.problem(at, orNull ? "a non-empty string or null" : "a non-empty string");
  }

  boolean(value: unknown, at: string): void {
    if (typeof value !== "boolean") this.problem(at, "a boolean");
  }

  hash(value: unknown, at: string): void {
    if (!isHash(value)) this.problem(at, "a sha256-<64 hex> hash");
  }

  /** POSIX, relative, inside the root: no leading slash, drive letter, backslash, "." or ".." segment. */
  relativePath(value: unknown, at: string): void {
    const ok = typeof value === "string" && value !== "" && !value.startsWith("/") && !/^[A-Za-z]:/.test(value) && !value.includes("\\") && value.split("/").every((s) => s !== "." && s !== ".." && s !== "");
    if (!ok) this.problem(at, "a POSIX path relative to the project root, inside it");
  }
}
