import { CAVE_PAGE, CAVE_RECOVER } from "../../src/contract/results/constants.js";
import type { LockedTool } from "../../src/contract/lock.js";
import type { RuntimeLock } from "../lock/read-lock.js";

/** A framework tool that exists only when a locked plan needs it. Read-only: it returns stored bytes. */
export interface ReservedTool {
  readonly name: typeof CAVE_PAGE | typeof CAVE_RECOVER;
  readonly description: string;
  /** Draft-07, as sent to providers. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly effect: "read";
}

const PAGE_NUMBER = {
  type: "integer",
  minimum: 1,
  maximum: 999999999,
  description: "Which page (1-based); default: the page the cursor points to.",
};

export const RESERVED_TOOLS: Readonly<Record<ReservedTool["name"], ReservedTool>> = Object.freeze({
  [CAVE_PAGE]: Object.freeze({
    name: CAVE_PAGE,
    description:
      "Returns a page of a paged tool result. Pass the cursor shown with the previous page; add page to jump to any page.",
    inputSchema: Object.freeze({
      type: "object",
      properties: {
        cursor: { type: "string", minLength: 1, maxLength: 512, description: "The cursor from a paged result." },
        page: PAGE_NUMBER,
      },
      required: ["cursor"],
      additionalProperties: false,
    }),
    effect: "read",
  }),
  [CAVE_RECOVER]: Object.freeze({
    name: CAVE_RECOVER,
    description:
      "Returns the exact, complete result of an earlier tool call that was shown shortened, by the reference shown with it; large results come in pages.",
    inputSchema: Object.freeze({
      type: "object",
      properties: {
        ref: {
          type: "string",
          minLength: 1,
          maxLength: 512,
          description: "The reference shown with the shortened result.",
        },
        page: PAGE_NUMBER,
      },
      required: ["ref"],
      additionalProperties: false,
    }),
    effect: "read",
  }),
});

export function isReservedTool(name: string): name is ReservedTool["name"] {
  return name === CAVE_PAGE || name === CAVE_RECOVER;
}

/** The reserved tools the lock's plans can refer the model to, sorted by name: only these are declared and callable. */
export function reservedToolsFor(lock: RuntimeLock): ReservedTool[] {
  let page = false;
  let recover = false;
  for (const name of lock.toolNames) {
    let tool: LockedTool;
    try {
      tool = lock.tool(name)!;
    } catch {
      // An entry refused on its first read (read-lock.ts) refers the model to nothing: it never runs.
      continue;
    }
    const plan = tool.result.plan;
    if (plan.strategy === "page") page = true;
    if (plan.recovery === "exact_ccr") recover = true;
  }
  const out: ReservedTool[] = [];
  if (page) out.push(RESERVED_TOOLS[CAVE_PAGE]);
  if (recover) out.push(RESERVED_TOOLS[CAVE_RECOVER]);
  return out;
}

/** Checks arguments against the reserved tool's input schema (hand-written: the runtime has no schema compiler). */
export function reservedInputProblem(name: ReservedTool["name"], args: unknown): string | null {
  const field = name === CAVE_PAGE ? "cursor" : "ref";
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return `${name} takes an object like {"${field}": "..."}`;
  const record = args as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== field && key !== "page")
      return `${name} has no argument ${JSON.stringify(key.slice(0, 40))}; pass ${field} and optionally page`;
  }
  const value = record[field];
  if (typeof value !== "string" || value.length === 0 || value.length > 512)
    return `${name} needs ${field}: the string shown with the result`;
  const page = record.page;
  if (page !== undefined && !(Number.isSafeInteger(page) && (page as number) >= 1 && (page as number) <= 999999999))
    return `${name} page must be an integer from 1`;
  return null;
}
