import { canonicalJson } from "../../src/contract/hash.js";
import { isRetryable, isSpeculable, type Effect } from "../../src/contract/effects.js";
import { parseScope, sortedScopes, writeScopeProblem } from "../../src/contract/fs-scopes.js";
import { TOOL_NAME_PATTERN } from "../../src/contract/names.js";
import { planShapeProblems } from "../results/check-plan.js";
import { scopeProblems } from "./check-scope.js";
import * as generated from "./lock-shape.generated.js";
import { firstShapeError } from "./shape-walk.js";
import { shapeProblem, type ShapeError } from "./shape-problem.js";

/** A generated validator as Ajv's standalone code makes it: whether the value is valid, and then why not in `errors`. */
interface Validator {
  (data: unknown): boolean;
  errors?: readonly ShapeError[] | null;
}
const definitions = generated.definitions as Record<string, unknown>;
/** The header's node walked as one more definition (its references are to the others). */
const HEADER = "(header)";
const withHeader: Record<string, unknown> = { ...definitions, [HEADER]: generated.headerSchema };

/** How the header or a tool's entry is checked against the schema: the first problem as Ajv reports it, or undefined. */
type ShapeCheck = (tool: unknown) => ShapeError | undefined;
/**
 * One entry at a time, as the runtime reads them on first use: the schema walked as data (shape-walk.ts), cheap cold,
 * and Ajv's tool validator, ~160 KB of code, stays out of what importing the runtime parses (esbuild drops it: nothing
 * the runtime's entry reaches uses it).
 */
const walkedEntry: ShapeCheck = (tool) => firstShapeError(definitions, "tool", tool);
/**
 * A whole lock at once (cave verify, cave diff, --frozen): Ajv's compiled validator, which after its compile checks a
 * thousand entries several times faster than the walk does cold. test/runtime/shape-walk.test.ts holds the two to the
 * same first problem.
 */
const compiledEntry: ShapeCheck = (tool) => {
  const validate = generated.tool as Validator;
  return validate(tool) ? undefined : firstError(validate);
};

/**
 * The header at start-up, walked as the entries are: Ajv's header validator (~50 KB of code) stays out of what
 * importing the runtime parses too; the header's thousand toolHashes lines are checked apart (hash-lines.ts), so the
 * walk sees little. A whole lock's header is checked by Ajv's validator (test/runtime/shape-walk.test.ts: the same first
 * problem).
 */
const walkedHeader: ShapeCheck = (header) => firstShapeError(withHeader, HEADER, header);
const compiledHeader: ShapeCheck = (header) => {
  const validate = generated.header as Validator;
  return validate(header) ? undefined : firstError(validate);
};

/**
 * The check of a v2 lock's shape. What docs/cave.lock.schema.json states is checked first: for a whole lock by Ajv's
 * validators compiled ahead from it (lock-shape.generated.ts, scripts/generate-lock-validator.mjs), at start-up and at an
 * entry's first use by walking the same schema as data, with Ajv's first error (shape-walk.ts); what a schema cannot
 * state is checked here, after it: order (sorted names and scopes), references between tools, and fields that follow
 * from others. Each check returns
 * the first problem as "<path> must be <expected>" (shape-problem.ts), or undefined. Integrity is checked before this,
 * so a failure here means a compiler bug or a hand-made lock, never a stray edit.
 *
 * The runtime checks the header at start-up and each tool's entry when it first reads it (read-lock.ts); the lock
 * inspector (inspect.ts) checks a whole lock.
 */
export function checkLockShape(lock: Record<string, unknown>): string | undefined {
  const { tools, ...header } = lock;
  if (tools === undefined) return "tools must be present";
  if (!isRecord(tools)) return "tools must be an object";
  const isLocked = (name: string) => Object.hasOwn(tools, name);
  const problem = headerProblem(
    header,
    isLocked,
    (name) => Object.hasOwn(header.toolHashes as object, name),
    compiledHeader,
  );
  if (problem !== undefined) return problem;
  for (const name of Object.keys(tools)) {
    if (!TOOL_NAME_PATTERN.test(name)) return `tools.${name} must be named by ${TOOL_NAME_PATTERN}`;
    const entry = toolProblem(name, tools[name], isLocked, compiledEntry);
    if (entry !== undefined) return entry;
  }
  return undefined;
}

/**
 * The header (the lock without `tools`), and that its names of tools are locked. `toolNames` are the keys of toolHashes
 * (the runtime may give the header with toolHashes empty when it checked that part's lines itself, hash-lines.ts).
 */
export function checkLockTopShape(header: Record<string, unknown>, toolNames: ReadonlySet<string>): string | undefined {
  const isLocked = (name: string) => toolNames.has(name);
  return headerProblem(header, isLocked, isLocked, walkedHeader);
}

/** One tool's entry, and that the nested tools it names are locked tools. */
export function checkToolShape(name: string, tool: unknown, toolNames: ReadonlySet<string>): string | undefined {
  return toolProblem(name, tool, (n) => toolNames.has(n), walkedEntry);
}

type IsLocked = (name: string) => boolean;

/** `isPinned`: whether toolHashes pins a tool of that name (what osLayerTools must name). */
function headerProblem(
  header: Record<string, unknown>,
  isLocked: IsLocked,
  isPinned: IsLocked,
  check: ShapeCheck,
): string | undefined {
  const error = check(asV2(header));
  if (error !== undefined) return shapeProblem(error, "");
  const problems: string[] = [];
  const osLayer = header.osLayerTools as string[];
  if (!sorted(osLayer)) problems.push("osLayerTools must be a sorted array of distinct tool names");
  for (const name of osLayer)
    if (!isPinned(name))
      problems.push(`osLayerTools must be names of locked tools (${JSON.stringify(name)} is not in the lock)`);
  const agents = header.agents as Record<string, { tools: string[] }>;
  for (const name of Object.keys(agents))
    problems.push(...namesProblems(agents[name]!.tools, `agents.${name}.tools`, isLocked));
  return problems[0];
}

function toolProblem(name: string, tool: unknown, isLocked: IsLocked, check: ShapeCheck): string | undefined {
  const at = `tools.${name}`;
  const error = check(tool);
  if (error !== undefined) return shapeProblem(error, at);
  const t = tool as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const problems: string[] = [];
  // The flags are consequences of the effect; a lock that disagrees would make the runtime guess.
  if (t.speculable !== isSpeculable(t.effect as Effect))
    problems.push(`${at}.speculable must be ${isSpeculable(t.effect as Effect)} for effect ${String(t.effect)}`);
  if (t.retryable !== isRetryable(t.effect as Effect))
    problems.push(`${at}.retryable must be ${isRetryable(t.effect as Effect)} for effect ${String(t.effect)}`);
  for (const [key, expected] of scopeProblems(t.sandbox)) problems.push(`${at}.sandbox.${key} must be ${expected}`);
  if (t.sandbox.fs !== null) problems.push(...fsProblems(`${at}.sandbox`, t.sandbox.fs, t.sandbox.mode));
  problems.push(...namesProblems(t.nestedTools, `${at}.nestedTools`, isLocked));
  if (!sorted(t.source.externals))
    problems.push(`${at}.source.externals must be a sorted array of distinct install paths`);
  for (const side of ["input", "output"] as const) {
    if (t[side] !== null && (t[side].jsonSchema === null) !== (t[side].sha256 === null))
      problems.push(`${at}.${side}.sha256 must be null exactly when jsonSchema is null`);
  }
  for (const [path, expected] of planShapeProblems(t.result.plan, `${at}.result.plan`))
    problems.push(`${path} must be ${expected}`);
  return problems[0];
}

/** Names of other tools: sorted (as cave build writes them), and each a locked tool. */
function namesProblems(names: readonly string[], at: string, isLocked: IsLocked): string[] {
  const problems = sorted(names) ? [] : [`${at} must be a sorted array of distinct tool names`];
  for (const n of names)
    if (!isLocked(n)) problems.push(`${at} must be names of locked tools (${JSON.stringify(n)} is not in the lock)`);
  return problems;
}

/** sandbox.fs when not null: sorted, normalised scopes, at least one; write scopes directories; never for sandbox none. */
function fsProblems(at: string, fs: { read: string[]; write: string[] }, mode: unknown): string[] {
  const problems: string[] = [];
  const expected =
    "a sorted array of distinct, normalised filesystem scopes (relative to the project, or under $SETTING)";
  for (const key of ["read", "write"] as const) {
    const list = fs[key];
    const ok = list.every((item) => {
      const parsed = parseScope(item);
      return parsed.ok && parsed.scope.text === item && (key === "read" || writeScopeProblem(parsed.scope) === null);
    });
    if (!ok || canonicalJson(sortedScopes(list)) !== canonicalJson(list))
      problems.push(`${at}.fs.${key} must be ${key === "write" ? `${expected}, each a directory` : expected}`);
  }
  if (fs.read.length === 0 && fs.write.length === 0) problems.push(`${at}.fs must be null when the tool has no scope`);
  if (mode === "none") problems.push(`${at}.fs must be null with sandbox "none" (scopes are enforced by the sandbox)`);
  return problems;
}

/** Distinct and in code-unit order (the schema says distinct; the order is cave build's). */
function sorted(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i++) if (!(names[i - 1]! < names[i]!)) return false;
  return true;
}

/**
 * A lock v1 (read by cave diff and cave verify only, upgraded by lock-v1.ts) as the v2 schema checks it: its version,
 * and an SDK written before the SDK module, which has none. Every other field is v2's after the upgrade.
 */
function asV2(header: Record<string, unknown>): Record<string, unknown> {
  if (header.lockfileVersion !== 1) return header;
  const sdk = header.sdk;
  const withModule =
    isRecord(sdk) && sdk.module === undefined
      ? { ...sdk, module: { path: "v1/sdk.mjs", sha256: `sha256-${"0".repeat(64)}` } }
      : sdk;
  return { ...header, lockfileVersion: 2, sdk: withModule };
}

function firstError(validate: Validator): ShapeError {
  return validate.errors![0]!;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
