import { describePath, snapshotJson, type DataSnapshot } from "../json-data.js";
import { RuntimeError } from "../errors.js";
import type { CompiledValidator } from "../validator-module.js";
import { opaqueRequest } from "./validate-input.js";
import type { CallState, Failure } from "./state.js";

type Checked = { readonly ok: true; readonly data: DataSnapshot } | Failure;

/**
 * Stage 8, validate output, before anything else sees the result. The raw value must be plain JSON
 * data within the output byte cap (refused, never altered: a returned `undefined` at the top level,
 * a tool that returns nothing, is the one exception and becomes null); then the locked validator
 * decides. An invalid value is withheld: the failure names only its size and hash, never the value,
 * its keys or the validator's issues. Synchronous once the tool's validator is loaded.
 */
export function validateOutput(state: CallState, raw: unknown): Checked | Promise<Checked> {
  const limit = state.engine.options.limits.maxOutputBytes;
  const first = snapshot(state, raw === undefined ? null : raw, limit, "returned");
  if (first.ok !== true) return first;
  const side = state.tool!.output;
  if (side === null) return first;
  const validation = side.validation;
  if (validation.kind === "opaque") return opaque(state, first, limit);
  const loaded = state.engine.loader.loadedValidator(validation);
  return loaded === undefined ? loadThenCheck(state, validation, first) : check(state, loaded, first);
}

async function loadThenCheck(state: CallState, validation: { readonly module: string; readonly sha256: string }, first: { readonly ok: true; readonly data: DataSnapshot }): Promise<Checked> {
  try {
    return check(state, await state.engine.loader.validator(state.name, "output", validation), first);
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
    throw thrown;
  }
}

function check(state: CallState, validator: CompiledValidator, first: { readonly ok: true; readonly data: DataSnapshot }): Checked {
  let accepted: boolean;
  try {
    accepted = validator.validate(first.data.value).ok;
  } catch {
    // Whatever the validator threw could quote the value: withheld like any invalid output.
    accepted = false;
  }
  return accepted ? first : withheld(state, first.data);
}

async function opaque(state: CallState, first: { readonly ok: true; readonly data: DataSnapshot }, limit: number): Promise<Checked> {
  const result = await state.dispatcher!.validateOpaque(opaqueRequest(state, "output", first.data.value));
  if (result.ok) return result.value === first.data.value ? first : snapshot(state, result.value, limit, "its output validator produced");
  if (!("issues" in result) && result.code === "LOCK_MISMATCH") return { code: result.code, message: result.message };
  return withheld(state, first.data);
}

function snapshot(state: CallState, value: unknown, limit: number, verb: string): Checked {
  const data = snapshotJson(value, limit);
  if (data.ok) return { ok: true, data };
  const { problem } = data;
  if (problem.kind === "too-large") {
    return { code: "OUTPUT_TOO_LARGE", message: `tool "${state.name}" ${verb} at least ${problem.bytes} bytes of JSON, over the ${limit}-byte limit (limits.maxOutputBytes); nothing was kept. Return less, or raise the limit` };
  }
  if (problem.kind === "too-deep") {
    return { code: "OUTPUT_TOO_DEEP", message: `tool "${state.name}" ${verb} a value that nests objects and arrays more than ${problem.maxDepth} levels deep; nothing was kept. Return flatter data` };
  }
  const what = problem.kind === "pollution" ? "a __proto__ or constructor.prototype key" : problem.what;
  return { code: "OUTPUT_NOT_SERIALISABLE", message: `tool "${state.name}" ${verb} a value that is not plain JSON data: ${what} at ${describePath(problem.path)}; nothing was dropped or converted. Return plain objects, arrays, strings, finite numbers, booleans and null` };
}

function withheld(state: CallState, data: DataSnapshot): Failure {
  return { code: "OUTPUT_INVALID", message: `tool "${state.name}" returned a value that does not match its output schema; it is withheld (${data.bytes} bytes, ${data.sha256}). Fix the tool or its output schema` };
}
