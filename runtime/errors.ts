import type { RuntimeCode } from "../src/contract/codes/runtime.js";

/**
 * What createRuntime(), startRun(), verifyAll() and bad call options throw: a stable code and a
 * message that names the file (relative to the root) or option and says what to do. A tool's
 * failure is never thrown; it is an outcome.
 */
export class RuntimeError extends Error {
  override readonly name = "RuntimeError";
  readonly code: RuntimeCode;

  constructor(code: RuntimeCode, message: string) {
    super(message);
    this.code = code;
  }
}
