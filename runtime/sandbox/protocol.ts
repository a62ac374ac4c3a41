import type { ValidationIssue } from "../dispatch/types.js";
import type { DataProblem } from "./child/data-rules.mjs";
import { RAW_STACK_CHARS } from "./child/raw-stack.mjs";

/**
 * The sandbox protocol, host side. One channel (the child's fd 3), length-prefixed JSON frames
 * (child/frames.mjs), one request at a time per child, every request and answer carrying the request's id.
 *
 * host → child: init (once), run, validate, nested (the answer to a nested call).
 * child → host: ready | load-failed (once, after init); for the pending request: any number of
 * `call` frames (nested calls), then exactly one of result | fail | validated | invalid.
 *
 * Ids are `<per-child random secret>.<counter>`; tool code never sees them, so a frame it forges on
 * the channel names no pending request. Anything else the child sends is a protocol error.
 */

/** Why a value could not leave the child as JSON data (child/data-rules.mjs, shared with runtime/pipeline/json-data.ts). */
export type { DataProblem };

/** Codes a child may put in a `fail` frame; anything else is a protocol error. */
export const CHILD_FAIL_CODES = [
  "TOOL_ERROR",
  "SANDBOX_DENIED",
  "NETWORK_REFUSED",
  "OUTPUT_NOT_SERIALISABLE",
  "OUTPUT_TOO_LARGE",
  "OUTPUT_TOO_DEEP",
  "INPUT_INVALID",
  "LOCK_MISMATCH",
] as const;
export type ChildFailCode = (typeof CHILD_FAIL_CODES)[number];

/** The code and `transient` flag of a thrown error and its causes, for the retry rule. */
export interface ErrorLink {
  readonly code: string | null;
  readonly transient: boolean;
}

export type ChildMessage =
  | { readonly t: "ready" }
  | { readonly t: "load-failed"; readonly code: ChildFailCode; readonly message: string }
  /** `logs`, on a run's result or fail: the tail of what execute wrote to stdout and stderr (child/log-tail.mjs), null when nothing. */
  | { readonly t: "result"; readonly id: string; readonly value: unknown; readonly logs: string | null }
  | { readonly t: "validated"; readonly id: string; readonly value: unknown }
  | { readonly t: "invalid"; readonly id: string; readonly issues: readonly ValidationIssue[] }
  /** `fatal`: the child exits right after this answer (an uncaught fault); it is never reused. */
  | {
      readonly t: "fail";
      readonly id: string;
      readonly code: ChildFailCode;
      readonly message: string;
      readonly chain: readonly ErrorLink[];
      readonly problem: DataProblem | null;
      readonly issues: readonly ValidationIssue[];
      readonly fatal: boolean;
      readonly stack: string | null;
      readonly logs: string | null;
    }
  | { readonly t: "call"; readonly id: string; readonly sub: number; readonly name: string; readonly args: unknown };

/** Reads one parsed frame as a child message, or returns why it is not one. */
export function decodeChildMessage(frame: unknown): ChildMessage | string {
  if (!isRecord(frame) || typeof frame.t !== "string") return "a frame that is not a message object";
  const t = frame.t;
  switch (t) {
    case "ready":
      return { t };
    case "load-failed":
      if (!isFailCode(frame.code) || typeof frame.message !== "string") return "a malformed load-failed message";
      return { t, code: frame.code, message: clip(frame.message) };
  }
  if (typeof frame.id !== "string") return `a ${JSON.stringify(t.slice(0, 40))} message without an id`;
  const id = frame.id;
  switch (t) {
    case "result":
      if (!Object.hasOwn(frame, "value")) return `a ${t} message without a value`;
      return { t, id, value: frame.value, logs: decodeLogs(frame.logs) };
    case "validated":
      if (!Object.hasOwn(frame, "value")) return `a ${t} message without a value`;
      return { t, id, value: frame.value };
    case "invalid": {
      const issues = decodeIssues(frame.issues);
      return issues === undefined ? "a malformed invalid message" : { t, id, issues };
    }
    case "fail": {
      if (!isFailCode(frame.code) || typeof frame.message !== "string") return "a malformed fail message";
      const chain = Array.isArray(frame.chain) ? frame.chain.slice(0, 3).map(decodeLink) : [];
      const issues = frame.issues === undefined ? [] : decodeIssues(frame.issues);
      const problem = frame.problem === undefined ? null : decodeProblem(frame.problem);
      if (issues === undefined || problem === undefined || chain.includes(undefined)) return "a malformed fail message";
      const stack = typeof frame.stack === "string" ? frame.stack.slice(0, RAW_STACK_CHARS) : null;
      return {
        t,
        id,
        code: frame.code,
        message: clip(frame.message),
        chain: chain as ErrorLink[],
        problem,
        issues,
        fatal: frame.fatal === true,
        stack,
        logs: decodeLogs(frame.logs),
      };
    }
    case "call":
      if (!Number.isSafeInteger(frame.sub) || typeof frame.name !== "string" || !Object.hasOwn(frame, "args"))
        return "a malformed call message";
      return { t, id, sub: frame.sub as number, name: frame.name, args: frame.args };
    default:
      return `an unknown message type ${JSON.stringify(t.slice(0, 40))}`;
  }
}

function decodeIssues(value: unknown): ValidationIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: ValidationIssue[] = [];
  for (const issue of value.slice(0, 100)) {
    if (!isRecord(issue) || typeof issue.path !== "string" || typeof issue.message !== "string") return undefined;
    out.push({ path: clip(issue.path), message: clip(issue.message) });
  }
  return out;
}

function decodeLink(value: unknown): ErrorLink | undefined {
  if (
    !isRecord(value) ||
    (value.code !== null && typeof value.code !== "string") ||
    typeof value.transient !== "boolean"
  )
    return undefined;
  return { code: value.code, transient: value.transient };
}

function decodeProblem(value: unknown): DataProblem | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === "too-large" && Number.isSafeInteger(value.bytes))
    return { kind: "too-large", bytes: value.bytes as number };
  if (value.kind === "native" && typeof value.what === "string") return { kind: "native", what: clip(value.what) };
  if (value.kind === "too-deep" && Number.isSafeInteger(value.maxDepth))
    return { kind: "too-deep", maxDepth: value.maxDepth as number };
  if (value.kind === "pollution" && typeof value.path === "string")
    return { kind: "pollution", path: clip(value.path) };
  if (value.kind === "not-data" && typeof value.path === "string" && typeof value.what === "string")
    return { kind: "not-data", path: clip(value.path), what: clip(value.what) };
  return undefined;
}

function isFailCode(value: unknown): value is ChildFailCode {
  return typeof value === "string" && (CHILD_FAIL_CODES as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A log tail as the child sends it (at most LOG_TAIL_BYTES of output and a one-line note, child/log-tail.mjs). The
 * child is not trusted to keep to that: anything longer is cut to the same number of characters from its end.
 */
function decodeLogs(value: unknown): string | null {
  if (typeof value !== "string" || value === "") return null;
  return value.length > MAX_LOGS_CHARS ? value.slice(-MAX_LOGS_CHARS) : value;
}

/** The most a log tail can be as text: 8 KiB of output (one character per byte at most) and its note. */
const MAX_LOGS_CHARS = 8192 + 100;

/** Text from the child goes into messages: bounded. */
function clip(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}
