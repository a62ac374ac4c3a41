import { createHmac } from "node:crypto";
import { nativeSnapshot, snapshotJson, type DataSnapshot, type SnapshotResult } from "./json-data.js";
import { RuntimeError } from "../errors.js";
import type { LockedValidatorEntry } from "../loading/loader.js";
import type { CompiledValidator } from "../loading/validator-module.js";
import { outputProblem } from "./output-problem.js";
import { opaqueRequest } from "./validate-input.js";
import type { CallState, Failure } from "./state.js";

type Checked = { readonly ok: true; readonly data: DataSnapshot } | Failure;

/**
 * Stage 8, validate output, before anything else sees the result. A tool without an output schema
 * keeps native JSON serialisation (what JSON.stringify makes of its value: json-data.ts nativeSnapshot),
 * within the output byte cap and depth limit. A tool with one must return plain JSON data (refused,
 * never altered), which the locked validator then decides on; whatever it refuses is withheld: the
 * failure names no part of the value, keys included, and fingerprints it only with an HMAC keyed by a
 * secret of this runtime (an unkeyed hash of a low-entropy value is recovered by trying candidates).
 * A top-level `undefined`, a tool that returns nothing, becomes null. Synchronous once the tool's
 * validator is loaded.
 */
export function validateOutput(state: CallState, raw: unknown): Checked | Promise<Checked> {
  const limit = state.engine.options.limits.maxOutputBytes;
  const side = state.tool!.output;
  const value = raw === undefined ? null : raw;
  if (side === null) return checked(state, nativeSnapshot(value, limit), limit, "returned", false);
  const validation = side.validation;
  const loaded = validation.kind === "opaque" ? undefined : state.engine.loader.loadedValidator(validation);
  const first = checked(state, snapshotJson(value, limit, loaded?.canonical), limit, "returned", true);
  if (first.ok !== true) return first;
  if (validation.kind === "opaque") return opaque(state, first, limit);
  // Copied by this schema's own walk, which found it valid: the validator would accept it.
  if (first.data.valid) return first;
  return loaded === undefined
    ? loadThenCheck(state, { jsonSchema: side.jsonSchema, validation }, first)
    : check(state, loaded, first);
}

async function loadThenCheck(
  state: CallState,
  locked: LockedValidatorEntry,
  first: { readonly ok: true; readonly data: DataSnapshot },
): Promise<Checked> {
  try {
    return check(state, await state.engine.loader.validator(state.name, "output", locked), first);
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
    throw thrown;
  }
}

function check(
  state: CallState,
  validator: CompiledValidator,
  first: { readonly ok: true; readonly data: DataSnapshot },
): Checked {
  let accepted: boolean;
  try {
    accepted = validator.validate(first.data.value).ok;
  } catch (thrown) {
    // The validator's file, read again for a value its walk could not decide, changed or cannot be compiled: the
    // build folder's problem (LOCK_MISMATCH), whose message names the file, never the value; as an opaque
    // validator's LOCK_MISMATCH below.
    if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
    // Whatever the validator's own code threw could quote the value: withheld like any invalid output.
    accepted = false;
  }
  return accepted ? first : withheld(state, first.data);
}

async function opaque(
  state: CallState,
  first: { readonly ok: true; readonly data: DataSnapshot },
  limit: number,
): Promise<Checked> {
  const result = await state.dispatcher!.validateOpaque(opaqueRequest(state, "output", first.data.value));
  if (result.ok)
    return result.value === first.data.value
      ? first
      : checked(state, snapshotJson(result.value, limit), limit, "its output validator produced", true);
  if (!("issues" in result) && result.code === "LOCK_MISMATCH") return { code: result.code, message: result.message };
  return withheld(state, first.data);
}

/** A snapshot, or the failure that says why there is none; `typed`: the tool has an output schema, so nothing of the value is named. */
function checked(state: CallState, data: SnapshotResult, limit: number, verb: string, typed: boolean): Checked {
  return data.ok ? { ok: true, data } : outputProblem(`tool "${state.name}"`, verb, data.problem, limit, typed);
}

function withheld(state: CallState, data: DataSnapshot): Failure {
  const fingerprint = createHmac("sha256", state.engine.withheldKey).update(data.text).digest("hex");
  return {
    code: "OUTPUT_INVALID",
    message: `tool "${state.name}" returned a value that does not match its output schema; it is withheld (${data.bytes} bytes, fingerprint hmac-sha256-${fingerprint}, keyed with a secret of this runtime). Fix the tool or its output schema`,
  };
}
