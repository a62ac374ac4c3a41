import type { LockedTool } from "../../src/contract/lock.js";
import type { RuntimeLock } from "../lock/read-lock.js";
import type { Dispatcher, DispatchResult } from "../dispatch/types.js";
import type { ResultPlans } from "./engine.js";
import { RESERVED_TOOLS, isReservedTool, reservedToolsFor } from "./reserved.js";

/**
 * cave_page and cave_recover as the call pipeline sees them: a tool that is not in the lock but
 * exists when a locked plan refers the model to it, so calls to it get the same budget, breaker,
 * effect gate, timeout and receipt as any other. `read` (it only returns stored bytes), repeatable
 * (asking for a page again is normal), never sandboxed (it runs no user code), schema-less to the
 * precompiled-validator stage: its dispatcher checks the arguments against its declared schema.
 */
const SYNTHETIC = new WeakMap<object, ReadonlyMap<string, LockedTool>>();

export function reservedToolFor(lock: RuntimeLock, name: string): LockedTool | undefined {
  if (!isReservedTool(name)) return undefined;
  let tools = SYNTHETIC.get(lock);
  if (tools === undefined) {
    tools = new Map(
      reservedToolsFor(lock).map((reserved) => [reserved.name, synthetic(reserved.name, lock.integrity)] as const),
    );
    SYNTHETIC.set(lock, tools);
  }
  return tools.get(name);
}

/** Each synthetic entry, with the integrity of the lock it was made for: its cursors and references are checked against it. */
const DISPATCHERS = new WeakMap<LockedTool, string>();

function synthetic(name: keyof typeof RESERVED_TOOLS, lockIntegrity: string): LockedTool {
  const reserved = RESERVED_TOOLS[name];
  const tool: LockedTool = Object.freeze({
    module: "(cave)",
    export: name,
    description: reserved.description,
    effect: "read",
    speculable: true,
    retryable: false,
    timeoutMs: 30_000,
    allowRepeat: true,
    sandbox: Object.freeze({
      mode: "none",
      network: false,
      env: Object.freeze([]),
      egress: Object.freeze([]),
      secrets: Object.freeze({}),
      fs: null,
      addons: false,
    }),
    nestedTools: Object.freeze([]),
    source: Object.freeze({
      bundle: "(cave)",
      sha256: "(cave)",
      files: Object.freeze({}),
      assets: Object.freeze([]),
      externals: Object.freeze([]),
    }),
    input: null,
    output: null,
    result: Object.freeze({
      requested: Object.freeze({ policy: "inline" }),
      plan: Object.freeze({
        strategy: "inline",
        reason: "reserved tool: its text is already paged",
        bound: Object.freeze({ kind: "unbounded", path: "", why: "stored results" }),
        inlineUpToTokens: null,
        pageTokens: null,
        transform: null,
        recovery: "none",
        tokenizer: null,
      }),
    }),
  }) as LockedTool;
  DISPATCHERS.set(tool, lockIntegrity);
  return tool;
}

/** Whether `tool` is a reserved tool's synthetic entry (false for every locked tool). */
export function isReservedEntry(tool: LockedTool): boolean {
  return DISPATCHERS.has(tool);
}

/**
 * The dispatcher of the reserved tools over a runtime's result plans: the root's shared store, or
 * the journal's when the runtime has one (so references in a replayed outcome resolve there).
 * Cursors and references are checked against the lock the synthetic entry was made for and the run.
 */
export function reservedDispatcher(plans: () => Promise<ResultPlans>): Dispatcher {
  return {
    async dispatch(request): Promise<DispatchResult> {
      const scope = { lockIntegrity: DISPATCHERS.get(request.tool) ?? "", run: request.runId };
      const outcome = await (await plans()).reserved(request.name, request.input, scope);
      if (outcome.ok) return { ok: true, value: outcome.content };
      return { ok: false, code: outcome.code, message: outcome.message, transient: false, effectUnknown: false };
    },
    async validateOpaque() {
      return { ok: false, code: "TOOL_ERROR", message: "reserved tools have no opaque validator" };
    },
  };
}
