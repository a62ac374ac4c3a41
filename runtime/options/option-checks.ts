import { describeValue, readOptions, type OptionProblem, type Rules } from "../../src/contract/options.js";
import { RuntimeError } from "../errors.js";

/**
 * The runtime's face of the one option reader (src/contract/options.ts): createRuntime, startRun, call and
 * createSandboxDispatcher throw the first problem as OPTIONS_INVALID, naming the option. `at` names the object in
 * messages; nested option objects ("budget", "limits") prefix their keys with it; `label` prefixes a value's
 * message ("call option ").
 */
export function checkOptions(value: unknown, at: string, rules: Rules, label = ""): Record<string, unknown> {
  const problems = readOptions(value, rules, at.endsWith("options") ? "" : `${at}.`);
  if (problems.length > 0) invalidOption(describeProblem(problems[0]!, at, rules, label));
  return value as Record<string, unknown>;
}

function describeProblem(problem: OptionProblem, at: string, rules: Rules, label: string): string {
  switch (problem.kind) {
    case "not-object":
      return `${at} must be an object`;
    case "unknown":
      return `unknown option "${problem.key}" in ${at}; known keys: ${Object.keys(rules).join(", ")}`;
    case "invalid":
      return `${label}${problem.key} ${problem.mustBe} (got ${describeValue(problem.value)})`;
  }
}

export function invalidOption(message: string): never {
  throw new RuntimeError("OPTIONS_INVALID", message);
}
