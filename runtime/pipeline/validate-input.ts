import { RuntimeError } from "../errors.js";
import type { OpaqueValidationRequest } from "../dispatch/types.js";
import { thrownMessage } from "../../src/contract/thrown-message.mjs";
import type { LockedValidatorEntry } from "../loading/loader.js";
import type { CompiledValidator } from "../loading/validator-module.js";
import { describeIssues } from "./issues.js";
import type { CallState, Failure } from "./state.js";

type Checked = { readonly ok: true; readonly value: unknown } | Failure;

/**
 * Stage 6, validate input, before any of the tool's own code runs. Precompiled validators check the
 * JSON copy (they never change it); an opaque validator (Standard Schema) runs where the tool runs,
 * through its dispatcher, and its output (transforms applied) is what execute receives. Schema-less
 * tools get the JSON copy as is. Synchronous once the tool's validator is loaded (most calls).
 */
export function validateInput(state: CallState): Checked | Promise<Checked> {
  const args = state.args$!;
  const value = args.value;
  const side = state.tool!.input;
  if (side === null) return { ok: true, value };
  const validation = side.validation;
  if (validation.kind === "opaque") return opaque(state, value);
  // Copied by this schema's own walk, which found it valid (resolve.ts): the validator would accept it.
  if (args.valid) return { ok: true, value };
  const loaded = state.engine.loader.loadedValidator(validation);
  return loaded === undefined
    ? loadThenCheck(state, { jsonSchema: side.jsonSchema, validation }, value)
    : check(state, loaded, value);
}

async function loadThenCheck(state: CallState, locked: LockedValidatorEntry, value: unknown): Promise<Checked> {
  try {
    return check(state, await state.engine.loader.validator(state.name, "input", locked), value);
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
    throw thrown;
  }
}

function check(state: CallState, validator: CompiledValidator, value: unknown): Checked {
  let result;
  try {
    result = validator.validate(value);
  } catch (thrown) {
    // The validator's own code, read again for a value its walk could not decide, changed or cannot be compiled.
    if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
    return {
      code: "INPUT_INVALID",
      message: `the input validator of tool "${state.name}" threw: ${thrownMessage(thrown)}; the input was not accepted`,
    };
  }
  return result.ok ? { ok: true, value } : invalid(state, describeIssues(result.issues));
}

async function opaque(state: CallState, value: unknown): Promise<Checked> {
  const result = await state.dispatcher!.validateOpaque(opaqueRequest(state, "input", value));
  if (result.ok) return { ok: true, value: result.value };
  if ("issues" in result) return invalid(state, describeIssues(result.issues));
  if (result.code === "TOOL_ERROR")
    return { code: "INPUT_INVALID", message: `${result.message}; the input was not accepted` };
  return { code: result.code, message: result.message };
}

export function opaqueRequest(state: CallState, side: "input" | "output", value: unknown): OpaqueValidationRequest {
  const { engine, name } = state;
  const tool = state.tool!;
  return {
    name,
    tool,
    root: engine.root,
    runId: state.run.id,
    side,
    value,
    loadModule: () => engine.loader.bundle(name, tool),
    stageFiles: () => engine.loader.stageFiles(name, tool),
  };
}

function invalid(state: CallState, issues: string): Failure {
  return {
    code: "INPUT_INVALID",
    message: `the arguments for tool "${state.name}" do not match its input schema: ${issues}; fix the arguments`,
  };
}
