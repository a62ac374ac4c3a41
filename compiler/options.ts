import { mustBe, readOptions, rule, type Rules } from "../src/contract/options.js";
import { error, type Diagnostic } from "./diagnostics.js";

/**
 * The compiler's face of the one option reader (src/contract/options.ts): every problem of an API option object
 * (`build()`, `evaluate()`) is a CAVE2007 diagnostic, collected, not thrown. `api` names the call ("build").
 */
export function optionDiagnostics(value: unknown, api: string, rules: Rules, usage: string): Diagnostic[] {
  return readOptions(value, rules).map((problem) => {
    switch (problem.kind) {
      case "not-object":
        return error("CAVE2007", `${api}() options must be an object`, usage);
      case "unknown":
        return error("CAVE2007", `unknown ${api} option "${problem.key}"`, problem.hint);
      case "invalid":
        return error("CAVE2007", `${api} option ${problem.key} ${problem.mustBe}`, problem.hint ?? usage);
    }
  });
}

const BUILD_RULES: Rules = {
  root: mustBe.hinted(mustBe.pathString, "Pass the project folder."),
  write: mustBe.hinted(mustBe.boolean, "Pass true or false."),
  config: null,
  evaluateTimeoutMs: mustBe.hinted(mustBe.positiveInteger, "Pass milliseconds, e.g. 10000."),
  cache: mustBe.hinted(mustBe.boolean, "Pass true or false."),
  review: mustBe.hinted(mustBe.function, "Pass (lock) => { ... }, called before anything is written."),
};

/** build()'s options: problems as CAVE2007 diagnostics (`config` is checked by discover, as cave.config.json is). */
export function checkBuildOptions(options: unknown): Diagnostic[] {
  return optionDiagnostics(options, "build", BUILD_RULES, 'Call build({ root: "path/to/project" }).');
}

const EVALUATE_RULES: Rules = {
  timeoutMs: rule(
    (value) => Number.isSafeInteger(value) && (value as number) > 0,
    "a positive integer of milliseconds",
  ),
  cache: null,
  isolation: null,
};

/**
 * evaluate()'s options. Only build() and tests call it, with options build() already checked: a bad one is the
 * caller's bug, so it is thrown (a TypeError), not reported as a diagnostic of the user's project.
 */
export function assertEvaluateOptions(options: unknown): void {
  const problems = readOptions(options, EVALUATE_RULES);
  const first = problems[0];
  if (first === undefined) return;
  if (first.kind === "not-object") throw new TypeError("evaluate() options must be an object");
  const unknown = problems.flatMap((problem) => (problem.kind === "unknown" ? [problem.key] : []));
  if (unknown.length > 0) throw new TypeError(`evaluate() does not know the option(s) ${unknown.join(", ")}`);
  if (first.kind === "invalid") throw new TypeError(`evaluate() option ${first.key} ${first.mustBe}`);
}
