import { EFFECTS, isRetryable, isSpeculable, type Effect } from "../../src/contract/effects.js";
import { scopeProblems } from "./check-scope.js";
import { ENV_NAME_PATTERN, MAX_TIMEOUT_MS, SEMANTICS_HASH_PATTERN, TOOL_NAME_PATTERN } from "../../src/contract/names.js";
import { planShapeProblems } from "../results/check-plan.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { parseScope, sortedScopes, writeScopeProblem } from "../../src/contract/fs-scopes.js";

/**
 * The structural check of a v2 lock, the runtime's copy of docs/cave.lock.schema.json written as
 * code (the runtime carries no schema compiler; test/lock-schema.test.ts holds the two together).
 * Each check returns the first problem as "<path>: <what>", or undefined when that part has the v2
 * shape. Integrity is checked before this, so a failure here means a compiler bug or a hand-made
 * lock, never a stray edit.
 *
 * The runtime checks the header at start-up and each tool's entry when it first reads it
 * (read-lock.ts); deploy checks run the whole of checkLockShape(). The passing path allocates
 * nothing it can avoid: a problem's path is built from (prefix, key) only when there is a problem.
 */
export function checkLockShape(lock: Record<string, unknown>): string | undefined {
  const tools = isRecord(lock.tools) ? lock.tools : undefined;
  const isLocked = (name: string) => tools !== undefined && Object.hasOwn(tools, name);
  const problems: string[] = [];
  const c = new Checker(problems);
  checkTop(c, lock, true);
  if (tools !== undefined) {
    // Keys and values as two native arrays: a lock's tools object is too large for fast property lookups.
    const names = Object.keys(tools);
    const entries = Object.values(tools);
    for (let i = 0; i < names.length; i++) checkTool(c, names[i]!, entries[i]);
    for (let i = 0; i < names.length; i++) {
      const t = entries[i];
      if (isRecord(t)) danglingNames(c, isLocked, t.nestedTools, "tools", names[i]!, "nestedTools");
    }
    danglingAgentTools(c, lock.agents, isLocked);
  }
  return problems[0];
}

/**
 * The header (the lock without `tools`): its keys, buildDir, sdk, agents, externals, toolHashes and
 * osLayerTools, and that each agent's tools are locked tools. `toolNames` are the keys of toolHashes.
 */
export function checkLockTopShape(header: Record<string, unknown>, toolNames: ReadonlySet<string>): string | undefined {
  const problems: string[] = [];
  const c = new Checker(problems);
  const lock = header;
  checkTop(c, lock, false);
  for (const name of toolNames) c.name(name, "tools", name);
  danglingAgentTools(c, lock.agents, (name) => toolNames.has(name));
  return problems[0];
}

/** One tool's entry, and that the nested tools it names are locked tools. */
export function checkToolShape(name: string, tool: unknown, toolNames: ReadonlySet<string>): string | undefined {
  const problems: string[] = [];
  const c = new Checker(problems);
  checkTool(c, name, tool);
  if (isRecord(tool)) danglingNames(c, (n) => toolNames.has(n), tool.nestedTools, "tools", name, "nestedTools");
  return problems[0];
}

function checkTop(c: Checker, lock: Record<string, unknown>, withTools: boolean): void {
  c.keysAt(lock, "", "", withTools ? LOCK_KEYS : HEADER_KEYS);
  // The external packages locked tools import, by install path (compiler/stage/externals.ts).
  if (c.record(lock.externals, "", "externals")) {
    const externals = lock.externals as Record<string, unknown>;
    for (const path in externals) {
      if (!isExternalPath(path)) c.problem("externals", path, "keyed by an install path (node_modules/<name>, possibly after ../)");
      if (!c.keysAt(externals[path], "externals", path, EXTERNAL_KEYS)) continue;
      const pin = externals[path] as Record<string, unknown>;
      for (const key of ["name", "version", "integrity"] as const) c.nonEmptyString(pin[key], `externals.${path}`, key);
      c.boolean(pin.optional, `externals.${path}`, "optional");
    }
  }
  if (c.record(lock.toolHashes, "", "toolHashes")) {
    const hashes = lock.toolHashes as Record<string, unknown>;
    for (const name in hashes) {
      c.name(name, "toolHashes", name);
      c.hash(hashes[name], "toolHashes", name);
    }
    c.sortedNames(lock.osLayerTools, "", "osLayerTools");
    if (Array.isArray(lock.osLayerTools)) for (const name of lock.osLayerTools) if (typeof name === "string" && !Object.hasOwn(hashes, name)) c.problem("", "osLayerTools", `names of locked tools (${JSON.stringify(name)} is not in the lock)`);
  }
  c.relativePath(lock.buildDir, "", "buildDir");
  // A lock v1 (read by cave diff and cave verify only, upgraded by lock-v1.ts) written before the SDK module has none.
  const v1 = lock.lockfileVersion === 1;
  if (lock.sdk !== null && c.keysAt(lock.sdk, "sdk", "", v1 ? SDK_V1_KEYS : SDK_KEYS, v1 ? ["module"] : [])) {
    const sdk = lock.sdk as Record<string, unknown>;
    if (typeof sdk.id !== "string" || !/^cave@\S+$/.test(sdk.id)) c.problem("sdk", "id", "cave@<version>");
    if (typeof sdk.sha256 !== "string" || !/^sha256-[0-9a-f]{64}$/.test(sdk.sha256)) c.problem("sdk", "sha256", "a sha256-<hex> hash");
    c.record(sdk.files, "sdk", "files");
    if (!(v1 && sdk.module === undefined) && c.keysAt(sdk.module, "sdk", "module", SDK_MODULE_KEYS)) {
      const module = sdk.module as Record<string, unknown>;
      c.relativePath(module.path, "sdk.module", "path");
      if (typeof module.sha256 !== "string" || !/^sha256-[0-9a-f]{64}$/.test(module.sha256)) c.problem("sdk.module", "sha256", "a sha256-<hex> hash");
    }
  }
  if (c.record(lock.agents, "", "agents")) {
    const agents = lock.agents as Record<string, unknown>;
    for (const name of Object.keys(agents)) {
      const agent = agents[name];
      c.name(name, "agents", name);
      if (!c.keysAt(agent, "agents", name, AGENT_KEYS)) continue;
      const a = agent as Record<string, unknown>;
      const at = `agents.${name}`;
      c.relativePath(a.module, at, "module");
      c.nonEmptyString(a.export, at, "export");
      if (a.description !== null) c.nonEmptyString(a.description, at, "description", true);
      c.sortedNames(a.tools, at, "tools");
    }
  }
  if (withTools) c.record(lock.tools, "", "tools");
}

function danglingAgentTools(c: Checker, agents: unknown, isLocked: (name: string) => boolean): void {
  if (!isRecord(agents)) return;
  for (const name of Object.keys(agents)) {
    const a = agents[name];
    if (isRecord(a)) danglingNames(c, isLocked, a.tools, "agents", name, "tools");
  }
}

/** Names that point at other tools must point inside this lock. */
function danglingNames(c: Checker, isLocked: (name: string) => boolean, names: unknown, group: string, owner: string, key: string): void {
  if (!Array.isArray(names)) return;
  for (const n of names) if (typeof n === "string" && !isLocked(n)) c.problem(`${group}.${owner}`, key, `names of locked tools (${JSON.stringify(n)} is not in the lock)`);
}

/**
 * The keys each object must have, in the order problems are reported, with the same list sorted in
 * code-unit order: the order cave build writes keys in, so a lock from cave build passes keysAt() by
 * one comparison per key.
 */
function keyList(...keys: string[]): KeyList {
  return { order: keys, sorted: [...keys].sort() };
}

interface KeyList {
  readonly order: readonly string[];
  readonly sorted: readonly string[];
}

const HEADER_KEYS = keyList("lockfileVersion", "integrity", "buildDir", "sdk", "agents", "externals", "osLayerTools", "toolHashes");
const LOCK_KEYS = keyList(...HEADER_KEYS.order, "tools");
const SDK_KEYS = keyList("id", "sha256", "files", "module");
const SDK_V1_KEYS = keyList("id", "sha256", "files");
const SDK_MODULE_KEYS = keyList("path", "sha256");
const AGENT_KEYS = keyList("module", "export", "description", "tools");
const TOOL_KEYS = keyList("module", "export", "description", "effect", "speculable", "retryable", "timeoutMs", "allowRepeat", "sandbox", "nestedTools", "source", "input", "output", "result");
const SANDBOX_KEYS = keyList("mode", "network", "env", "egress", "secrets", "fs", "addons");
const FS_KEYS = keyList("read", "write");
const EXTERNAL_KEYS = keyList("name", "version", "integrity", "optional");
// An install path relative to the root: node_modules/<name> (scoped or nested), after ../ segments in a hoisted workspace.
const EXTERNAL_PATH = /^(?:\.\.\/)*(?:[^./][^/]*\/)*node_modules\/(?:@[^/.][^/]*\/)?[^/.][^/]*(?:\/node_modules\/(?:@[^/.][^/]*\/)?[^/.][^/]*)*$/;

function isExternalPath(value: unknown): value is string {
  return typeof value === "string" && EXTERNAL_PATH.test(value) && !value.split("/").some((part, i, all) => part === ".." && all.slice(0, i).some((before) => before !== ".."));
}
const SOURCE_KEYS = keyList("bundle", "sha256", "files", "assets", "externals");
const ASSET_KEYS = keyList("path", "sha256");
const SIDE_KEYS = keyList("jsonSchema", "sha256", "validation");
const PRECOMPILED_KEYS = keyList("kind", "module", "sha256");
const OPAQUE_KEYS = keyList("kind", "vendor", "semanticsSHA256");
const RESULT_KEYS = keyList("requested", "plan");
const ARTIFACT_KEYS = keyList("strategy", "maxInlineTokens", "recovery");
const RESULT_POLICIES = ["auto", "inline", "page", "compress", "exact_ccr"];

function checkTool(c: Checker, name: string, tool: unknown): void {
  c.name(name, "tools", name);
  if (!c.keysAt(tool, "tools", name, TOOL_KEYS)) return;
  const at = `tools.${name}`;
  const t = tool as Record<string, unknown>;
  c.relativePath(t.module, at, "module");
  c.nonEmptyString(t.export, at, "export");
  c.nonEmptyString(t.description, at, "description");
  if (!(EFFECTS as readonly unknown[]).includes(t.effect)) c.problem(at, "effect", `one of ${EFFECTS.join(", ")}`);
  else {
    // The flags are consequences of the effect; a lock that disagrees would make the runtime guess.
    if (t.speculable !== isSpeculable(t.effect as Effect)) c.problem(at, "speculable", `${isSpeculable(t.effect as Effect)} for effect ${String(t.effect)}`);
    if (t.retryable !== isRetryable(t.effect as Effect)) c.problem(at, "retryable", `${isRetryable(t.effect as Effect)} for effect ${String(t.effect)}`);
  }
  if (!(Number.isSafeInteger(t.timeoutMs) && (t.timeoutMs as number) >= 1 && (t.timeoutMs as number) <= MAX_TIMEOUT_MS)) c.problem(at, "timeoutMs", `an integer from 1 to ${MAX_TIMEOUT_MS}`);
  c.boolean(t.allowRepeat, at, "allowRepeat");
  if (c.keysAt(t.sandbox, at, "sandbox", SANDBOX_KEYS)) {
    const s = t.sandbox as Record<string, unknown>;
    for (const [key, expected] of scopeProblems(s)) c.problem(`${at}.sandbox`, key, expected);
    c.boolean(s.addons, `${at}.sandbox`, "addons");
    if (s.mode !== "required" && s.mode !== "none") c.problem(`${at}.sandbox`, "mode", `"required" or "none"`);
    if (s.network !== false) c.problem(`${at}.sandbox`, "network", "false");
    if (!distinctEnvNames(s.env)) c.problem(`${at}.sandbox`, "env", "an array of distinct environment names");
    if (s.fs !== null) checkFs(c, `${at}.sandbox`, s.fs, s.mode);
  }
  c.sortedNames(t.nestedTools, at, "nestedTools");
  if (c.keysAt(t.source, at, "source", SOURCE_KEYS)) {
    const s = t.source as Record<string, unknown>;
    c.relativePath(s.bundle, `${at}.source`, "bundle");
    c.hash(s.sha256, `${at}.source`, "sha256");
    if (c.record(s.files, `${at}.source`, "files")) {
      // Every file of the tool's staged graph: a lock never loads anything by these, so their hashes
      // get a cheap form check.
      const files = s.files as Record<string, unknown>;
      for (const file in files) {
        const hash = files[file];
        if (typeof hash !== "string" || hash.length !== 71 || !hash.startsWith("sha256-")) c.problem(`${at}.source.files`, file, "a sha256-<64 hex> hash");
      }
    }
    // The files the tool reads next to its code, each loaded (copied) by this path and hash.
    {
      if (!Array.isArray(s.assets)) c.problem(`${at}.source`, "assets", "an array of { path, sha256 }");
      else
        s.assets.forEach((asset: unknown, i: number) => {
          if (!c.keysAt(asset, `${at}.source.assets`, String(i), ASSET_KEYS)) return;
          const a = asset as Record<string, unknown>;
          c.relativePath(a.path, `${at}.source.assets.${i}`, "path");
          c.hash(a.sha256, `${at}.source.assets.${i}`, "sha256");
        });
    }
    // The install paths of the external packages it imports, each a key of the lock's externals.
    {
      const ok = Array.isArray(s.externals) && s.externals.every((path: unknown, i: number) => isExternalPath(path) && (i === 0 || (s.externals as string[])[i - 1]! < path));
      if (!ok) c.problem(`${at}.source`, "externals", "a sorted array of distinct install paths");
    }
  }
  checkSide(c, t.input, at, "input");
  checkSide(c, t.output, at, "output");
  if (c.keysAt(t.result, at, "result", RESULT_KEYS)) {
    const result = t.result as Record<string, unknown>;
    const plan = planShapeProblems(result.plan, `${at}.result.plan`);
    for (let i = 0; i < plan.length; i++) c.problem(plan[i]![0], "", plan[i]![1]);
    const requested = result.requested;
    if (c.record(requested, `${at}.result`, "requested")) {
      const r = requested as Record<string, unknown>;
      if (r.policy === "artifact") {
        if (c.keysAt(r.artifact, `${at}.result.requested`, "artifact", ARTIFACT_KEYS)) {
          const a = r.artifact as Record<string, unknown>;
          const where = `${at}.result.requested.artifact`;
          if (!["page", "compress", "exact_ccr"].includes(a.strategy as string)) c.problem(where, "strategy", "page, compress or exact_ccr");
          if (!(Number.isSafeInteger(a.maxInlineTokens) && (a.maxInlineTokens as number) >= 1)) c.problem(where, "maxInlineTokens", "a positive integer");
          if (a.recovery !== "exact_ccr" && a.recovery !== "none") c.problem(where, "recovery", "exact_ccr or none");
        }
        if (Object.keys(r).some((k) => k !== "policy" && k !== "artifact")) c.problem(`${at}.result`, "requested", "an object with policy and artifact only");
      } else if (!RESULT_POLICIES.includes(r.policy as string) || Object.keys(r).length !== 1) {
        c.problem(`${at}.result`, "requested", `{ policy } with one of ${RESULT_POLICIES.join(", ")}, or { policy: "artifact", artifact }`);
      }
    }
  }
}

function checkSide(c: Checker, side: unknown, tool: string, key: "input" | "output"): void {
  if (side === null) return;
  if (!c.keysAt(side, tool, key, SIDE_KEYS)) return;
  const s = side as Record<string, unknown>;
  if (s.jsonSchema !== null && !isRecord(s.jsonSchema)) c.problem(`${tool}.${key}`, "jsonSchema", "an object or null");
  if (s.sha256 !== null) c.hash(s.sha256, `${tool}.${key}`, "sha256");
  if ((s.jsonSchema === null) !== (s.sha256 === null)) c.problem(`${tool}.${key}`, "sha256", "null exactly when jsonSchema is null");
  const v = s.validation;
  if (!isRecord(v)) return c.problem(`${tool}.${key}`, "validation", "an object");
  if (v.kind === "precompiled") {
    if (c.keysAt(v, `${tool}.${key}`, "validation", PRECOMPILED_KEYS)) {
      c.relativePath(v.module, `${tool}.${key}.validation`, "module");
      c.hash(v.sha256, `${tool}.${key}.validation`, "sha256");
    }
  } else if (v.kind === "opaque") {
    if (c.keysAt(v, `${tool}.${key}`, "validation", OPAQUE_KEYS)) {
      c.nonEmptyString(v.vendor, `${tool}.${key}.validation`, "vendor");
      if (typeof v.semanticsSHA256 !== "string" || !SEMANTICS_HASH_PATTERN.test(v.semanticsSHA256)) c.problem(`${tool}.${key}.validation`, "semanticsSHA256", "64 lowercase hex characters");
    }
  } else c.problem(`${tool}.${key}.validation`, "kind", `"precompiled" or "opaque"`);
}

/** sandbox.fs when not null: sorted, normalised scopes, at least one; write scopes directories; never for sandbox none. */
function checkFs(c: Checker, at: string, fs: unknown, mode: unknown): void {
  if (!c.keysAt(fs, at, "fs", FS_KEYS)) return;
  const lists = fs as Record<string, unknown>;
  const expected = "a sorted array of distinct, normalised filesystem scopes (relative to the project, or under $SETTING)";
  for (const key of FS_KEYS.order) {
    const list = lists[key];
    const ok = Array.isArray(list) && list.every((item) => {
      const parsed = parseScope(item);
      return parsed.ok && parsed.scope.text === item && (key === "read" || writeScopeProblem(parsed.scope) === null);
    });
    if (!ok || canonicalJson(sortedScopes(list as string[])) !== canonicalJson(list)) c.problem(`${at}.fs`, key, key === "write" ? `${expected}, each a directory` : expected);
  }
  if (Array.isArray(lists.read) && Array.isArray(lists.write) && lists.read.length === 0 && lists.write.length === 0) c.problem(at, "fs", "null when the tool has no scope");
  if (mode === "none") c.problem(at, "fs", 'null with sandbox "none" (scopes are enforced by the sandbox)');
}

function distinctEnvNames(env: unknown): boolean {
  return Array.isArray(env) && env.every((e) => typeof e === "string" && ENV_NAME_PATTERN.test(e)) && (env.length < 2 || new Set(env).size === env.length);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Regular expressions, not loops over characters: at start-up this code runs cold, once per field of
// every tool, and a compiled pattern beats an unoptimised loop many times over.
const HASH = /^sha256-[0-9a-f]{64}$/;
/** POSIX, relative, inside the root: no drive letter ("C:"), no backslash, and "/"-separated segments that are neither empty (a leading, trailing or double slash) nor "." nor "..". */
const RELATIVE_PATH = /^(?![A-Za-z]:)(?!\.\.?(?:\/|$))[^/\\]+(?:\/(?!\.\.?(?:\/|$))[^/\\]+)*$/;

function isHash(value: unknown): boolean {
  return typeof value === "string" && HASH.test(value);
}

function isRelativePath(value: unknown): boolean {
  return typeof value === "string" && RELATIVE_PATH.test(value);
}

class Checker {
  constructor(private readonly problems: string[]) {}

  /** Records that `<at>.<key>` (or `key` at the top level, or `at` alone when key is "") must be `expected`. */
  problem(at: string, key: string, expected: string): void {
    const path = key === "" ? at : at === "" ? key : `${at}.${key}`;
    this.problems.push(`${path === "" ? "(top level)" : path} must be ${expected}`);
  }

  /** An object with exactly the `required` keys. */
  keys(value: unknown, at: string, required: KeyList): boolean {
    return this.keysAt(value, at, "", required);
  }

  /** keys() of `<at>.<key>`, naming it only if there is a problem. */
  keysAt(value: unknown, at: string, key: string, required: KeyList, optional: readonly string[] = []): boolean {
    if (!isRecord(value)) {
      this.problem(at, key, "an object");
      return false;
    }
    // A lock from cave build has exactly these keys, in this order: one comparison each.
    const present = Object.keys(value);
    const sorted = required.sorted;
    if (present.length === sorted.length) {
      let same = true;
      for (let i = 0; i < present.length && same; i++) same = present[i] === sorted[i];
      if (same) return true;
    }
    const where = key === "" ? at : at === "" ? key : `${at}.${key}`;
    for (const k of required.order) if (!(k in value)) this.problem(where, k, "present");
    for (const k of present) if (!required.order.includes(k) && !optional.includes(k)) this.problem(where, k, "absent (unknown key)");
    return true;
  }

  record(value: unknown, at: string, key: string): boolean {
    if (isRecord(value)) return true;
    this.problem(at, key, "an object");
    return false;
  }

  name(value: string, at: string, key: string): void {
    if (!TOOL_NAME_PATTERN.test(value)) this.problem(at, key, `named by ${TOOL_NAME_PATTERN}`);
  }

  sortedNames(value: unknown, at: string, key: string): void {
    const ok = Array.isArray(value) && value.every((n, i) => typeof n === "string" && TOOL_NAME_PATTERN.test(n) && (i === 0 || (value[i - 1] as string) < n));
    if (!ok) this.problem(at, key, "a sorted array of distinct tool names");
  }

  nonEmptyString(value: unknown, at: string, key: string, orNull = false): void {
    if (typeof value !== "string" || value === "") this.problem(at, key, orNull ? "a non-empty string or null" : "a non-empty string");
  }

  boolean(value: unknown, at: string, key: string): void {
    if (typeof value !== "boolean") this.problem(at, key, "a boolean");
  }

  hash(value: unknown, at: string, key: string): void {
    if (!isHash(value)) this.problem(at, key, "a sha256-<64 hex> hash");
  }

  relativePath(value: unknown, at: string, key: string): void {
    if (!isRelativePath(value)) this.problem(at, key, "a POSIX path relative to the project root, inside it");
  }
}
