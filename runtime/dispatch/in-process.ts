import { TOOL_BRAND } from "../../src/contract/brands.js";
import { RuntimeError } from "../errors.js";
import { isTransient } from "../run/retry.js";
import { thrownMessage } from "../../src/contract/thrown-message.mjs";
import { rawStack } from "../sandbox/child/raw-stack.mjs";
import {
  DISPATCH_NOW,
  type DispatchFailure,
  type DispatchRequest,
  type DispatchResult,
  type Dispatcher,
  type OpaqueValidationRequest,
  type OpaqueValidationResult,
  type ValidationIssue,
} from "./types.js";

/** The part of a tool() definition the runtime uses. */
interface LoadedTool {
  readonly name: string;
  readonly input: unknown;
  readonly output: unknown;
  execute(input: unknown, context: unknown): unknown;
}

interface StandardResult {
  readonly value?: unknown;
  readonly issues?: ReadonlyArray<{ readonly message?: unknown; readonly path?: ReadonlyArray<unknown> }>;
}

/**
 * Runs tools in this process: imports the verified bundle, finds the locked export, checks the
 * brand, calls execute. For `sandbox: "none"` tools (trusted code) and tests. It cannot stop a
 * synchronous endless loop or native work: only the child-process sandbox can.
 */
export const inProcessDispatcher: Dispatcher = Object.freeze({
  isolation: () => "none" as const,
  dispatch(request: DispatchRequest): Promise<DispatchResult> {
    const now = runNow(request);
    return now instanceof Promise ? now : Promise.resolve(now);
  },

  [DISPATCH_NOW]: runNow,

  async validateOpaque(request: OpaqueValidationRequest): Promise<OpaqueValidationResult> {
    const definition = await loadDefinition(request);
    if (!definition.ok) return definition;
    const schema = definition.tool[request.side] as
      | { "~standard"?: { validate?: (value: unknown) => StandardResult | Promise<StandardResult> } }
      | undefined;
    const validate = schema?.["~standard"]?.validate;
    if (typeof validate !== "function") {
      return {
        ok: false,
        code: "LOCK_MISMATCH",
        message: `tool "${request.name}": the staged bundle ${request.tool.source.bundle} has no Standard Schema ${request.side} although the lock says it is validated by one; rebuild with cave build`,
      };
    }
    let result: StandardResult;
    try {
      result = await validate.call(schema!["~standard"], request.value);
    } catch (thrown) {
      return {
        ok: false,
        code: "TOOL_ERROR",
        message: `the ${request.side} validator of tool "${request.name}" threw: ${thrownMessage(thrown)}`,
      };
    }
    if (result.issues !== undefined) return { ok: false, issues: result.issues.map(toIssue) };
    return { ok: true, value: result.value };
  },
});

/** The result at once for a loaded tool that returns a value; a promise otherwise. */
function runNow(request: DispatchRequest): DispatchResult | Promise<DispatchResult> {
  const known = found.get(request.tool);
  return known === undefined ? loadThenRun(request) : run(known.tool, request);
}

/**
 * Calls execute. A result that is not a thenable is the outcome at once: no await for a tool that
 * returns synchronously (most small tools), and `then` is read once, as an await would.
 */
function run(tool: LoadedTool, request: DispatchRequest): DispatchResult | Promise<DispatchResult> {
  let out: unknown;
  let then: unknown;
  try {
    out = tool.execute(request.input, request.context);
    if ((typeof out === "object" && out !== null) || typeof out === "function") then = (out as { then?: unknown }).then;
  } catch (thrown) {
    return executeFailed(request, thrown);
  }
  if (typeof then !== "function") return { ok: true as const, value: out };
  return settle(out, request);
}

async function settle(pending: unknown, request: DispatchRequest): Promise<DispatchResult> {
  try {
    return { ok: true as const, value: await pending };
  } catch (thrown) {
    return executeFailed(request, thrown);
  }
}

async function loadThenRun(request: DispatchRequest): Promise<DispatchResult> {
  const definition = await findDefinition(request);
  if (!definition.ok) return definition;
  return run(definition.tool, request);
}

async function executeFailed(request: DispatchRequest, thrown: unknown): Promise<DispatchFailure> {
  const failed = failure("TOOL_ERROR", `tool "${request.name}" failed: ${thrownMessage(thrown)}`, isTransient(thrown));
  const raw = rawStack(thrown);
  if (raw === undefined || request.mapStack === undefined) return failed;
  const stack = await request.mapStack(raw);
  return stack.length === 0 ? failed : { ...failed, stack };
}

/** Definitions already found and checked, by the lock's entry (one per tool per runtime). */
const found = new WeakMap<object, { ok: true; tool: LoadedTool }>();

function loadDefinition(
  request: DispatchRequest | OpaqueValidationRequest,
): { ok: true; tool: LoadedTool } | Promise<{ ok: true; tool: LoadedTool } | DispatchFailure> {
  return found.get(request.tool) ?? findDefinition(request);
}

async function findDefinition(
  request: DispatchRequest | OpaqueValidationRequest,
): Promise<{ ok: true; tool: LoadedTool } | DispatchFailure> {
  let namespace: Readonly<Record<string, unknown>>;
  try {
    namespace = await request.loadModule();
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return failure(thrown.code, thrown.message, false);
    return failure("TOOL_ERROR", `tool "${request.name}": its module failed to load: ${thrownMessage(thrown)}`, false);
  }
  const exported = request.tool.export;
  const value = Object.hasOwn(namespace, exported) ? namespace[exported] : undefined;
  const tool = value as (Partial<LoadedTool> & { [TOOL_BRAND]?: unknown }) | undefined;
  if (
    typeof tool !== "object" ||
    tool === null ||
    tool[TOOL_BRAND] !== true ||
    typeof tool.execute !== "function" ||
    tool.name !== request.name
  ) {
    return failure(
      "LOCK_MISMATCH",
      `tool "${request.name}": the staged bundle ${request.tool.source.bundle} does not export it as ${JSON.stringify(exported)} (a tool() definition with that name); rebuild with cave build`,
      false,
    );
  }
  const hit = { ok: true as const, tool: tool as LoadedTool };
  found.set(request.tool, hit);
  return hit;
}

function failure(code: DispatchFailure["code"], message: string, transient: boolean): DispatchFailure {
  return { ok: false, code, message, transient, effectUnknown: false };
}

/** Standard Schema paths are keys or { key } segments; issues use JSON Pointers like the precompiled validators. */
function toIssue(issue: { readonly message?: unknown; readonly path?: ReadonlyArray<unknown> }): ValidationIssue {
  const path = (issue.path ?? [])
    .map((segment) => {
      const key = typeof segment === "object" && segment !== null ? (segment as { key?: unknown }).key : segment;
      return `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
    })
    .join("");
  return { path, message: typeof issue.message === "string" ? issue.message : "is invalid" };
}
