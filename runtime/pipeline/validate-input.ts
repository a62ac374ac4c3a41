import { RuntimeError } from "../errors.js";
import { thrownMessage } from "../thrown-message.js";
import type { OpaqueValidationRequest } from "../dispatch/types.js";
import { describeIssues } from "./issues.js";
import type { CallState, Failure } from "./state.js";

/**
 * Stage 6, validate input, before any of the tool's own code runs. Precompiled validators check the
 * JSON copy (they never change it); an opaque validator (Standard Schema) runs where the tool runs,
 * through its dispatcher, and its output (transforms applied) is what execute receives. Schema-less
 * tools get the JSON copy as is.
 */
export async function validateInput(state: CallState): Promise<{ readonly ok: true; readonly value: unknown } | Failure> {
  const tool = state.tool!;
  const value = state.args$!.value;
  const side = tool.input;
  if (side === null) return { ok: true, value };
  const validation = side.validation;

  if (validation.kind === "precompiled") {
    let result;
    try {
      const validator = await state.engine.loader.validator(state.name, "input", validation.module, validation.sha256);
      result = validator.validate(value);
    } catch (thrown) {
      if (thrown instanceof RuntimeError) return { code: thrown.code, message: thrown.message };
      return { code: "INPUT_INVALID", message: `the input validator of tool "${state.name}" threw: ${thrownMessage(thrown)}; the input was not accepted` };
    }
    if (result.ok) return { ok: true, value };
    return invalid(state, describeIssues(result.issues));
  }

  const result = await state.dispatcher!.validateOpaque(opaqueRequest(state, "input", value));
  if (result.ok) return { ok: true, value: result.value };
  if ("issues" in result) return invalid(state, describeIssues(result.issues));
  if (result.code === "TOOL_ERROR") return { code: "INPUT_INVALID", message: `${result.message}; the input was not accepted` };
  return { code: result.code, message: result.message };
}

export function opaqueRequest(state: CallState, side: "input" | "output", value: unknown): OpaqueValidationRequest {
  const { engine, name } = state;
  const tool = state.tool!;
  return { name, tool, root: engine.root, side, value, loadModule: () => engine.loader.bundle(name, tool) };
}

function invalid(state: CallState, issues: string): Failure {
  return { code: "INPUT_INVALID", message: `the arguments for tool "${state.name}" do not match its input schema: ${issues}; fix the arguments` };
}
