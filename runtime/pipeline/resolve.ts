import { RuntimeError } from "../errors.js";
import { describePath, snapshotJson, type CanonicalSerializer } from "./json-data.js";
import { isReservedEntry, reservedToolFor } from "../results/reserved-call.js";
import type { CallState, Failure } from "./state.js";

/**
 * Stage 2, resolve: which tool, run by whom, with which arguments. Nested calls must come from a
 * running parent that declared the tool. The arguments become a detached JSON copy with its
 * canonical hash (the repeat guard and the receipt need it), or are refused here: not JSON data,
 * a `__proto__`/`constructor.prototype` key, over the input byte cap or nested past MAX_JSON_DEPTH.
 * No tool code runs.
 */
export function resolve(state: CallState): Failure | undefined {
  const snapshot = snapshotJson(state.args, state.engine.options.limits.maxInputBytes, inputSerializer(state));
  if (snapshot.ok) state.args$ = snapshot;

  const parent = state.parent;
  if (parent !== null) {
    if (parent.settled) {
      return {
        code: "PARENT_SETTLED",
        message: `tool "${parent.name}" called "${state.name}" after its own call ${parent.callId} had finished; await nested calls inside execute`,
      };
    }
    if (!parent.tool!.nestedTools.includes(state.name)) {
      const declared =
        parent.tool!.nestedTools.length === 0
          ? "it declares no nested tools"
          : `it declares ${parent.tool!.nestedTools.map((n) => JSON.stringify(n)).join(", ")}`;
      return {
        code: "NESTED_NOT_DECLARED",
        message: `tool "${parent.name}" may not call "${state.name}": ${declared}; add it to nestedTools and rebuild`,
      };
    }
  }

  const lock = state.engine.lock;
  let tool = state.engine.resolved.get(state.name);
  if (tool === undefined) {
    try {
      tool = lock.has(state.name) ? lock.tool(state.name) : reservedToolFor(lock, state.name);
    } catch (thrown) {
      // A tool's lock entry is verified against its hash and shape-checked on first read (runtime/lock/read-lock.ts).
      if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
      throw thrown;
    }
    if (tool !== undefined) state.engine.resolved.set(state.name, tool);
  }
  if (tool === undefined) {
    return {
      code: "UNKNOWN_TOOL",
      message: `${JSON.stringify(state.name)} is not a locked tool (the lock has ${lock.toolNames.length}; runtime.toolDeclarations() lists them); call a locked tool, or add it and run cave build`,
    };
  }
  state.tool = tool;

  if (!snapshot.ok) {
    const { problem } = snapshot;
    if (problem.kind === "too-large") {
      return {
        code: "INPUT_TOO_LARGE",
        message: `the arguments for tool "${state.name}" are at least ${problem.bytes} bytes of JSON, over the ${state.engine.options.limits.maxInputBytes}-byte limit (limits.maxInputBytes); send less`,
      };
    }
    if (problem.kind === "too-deep") {
      return {
        code: "INPUT_TOO_DEEP",
        message: `the arguments for tool "${state.name}" nest objects and arrays more than ${problem.maxDepth} levels deep; send flatter data`,
      };
    }
    if (problem.kind === "pollution") {
      return {
        code: "INPUT_INVALID",
        message: `the arguments for tool "${state.name}" have a prototype-polluting key at ${describePath(problem.path)}; __proto__ and constructor.prototype keys are refused, rename or remove it`,
      };
    }
    const where = problem.kind === "not-data" ? ` at ${describePath(problem.path)}` : "";
    return {
      code: "INPUT_INVALID",
      message: `the arguments for tool "${state.name}" are not JSON data: ${problem.what}${where}; pass plain objects, arrays, strings, finite numbers, booleans and null`,
    };
  }

  // sandbox: "required" tools go to the sandbox dispatcher (the child-process sandbox unless another is
  // passed), never to the in-process one; a sandbox that cannot run reports SANDBOX_UNAVAILABLE itself.
  // cave_page / cave_recover run no user code: their own dispatcher (runtime/results/reserved-call.ts).
  const dispatchers = state.engine.dispatchers;
  const dispatcher = isReservedEntry(tool)
    ? dispatchers.reserved
    : tool.sandbox.mode === "none"
      ? dispatchers.none
      : dispatchers.required;
  state.dispatcher = dispatcher;
  return undefined;
}

/** The build-time serializer of the tool's input schema, once the tool was resolved and its validator loaded (every call after its first). */
function inputSerializer(state: CallState): CanonicalSerializer | undefined {
  const validation = state.engine.resolved.get(state.name)?.input?.validation;
  return validation === undefined || validation.kind === "opaque"
    ? undefined
    : state.engine.loader.loadedValidator(validation)?.canonical;
}
