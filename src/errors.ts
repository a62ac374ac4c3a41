import type { CaveCode } from "./contract/codes.js";

/** One broken rule: which field, what is wrong, and what to do. */
export interface Violation {
  readonly code: CaveCode;
  /** The option path, e.g. "timeout", "sandboxProfile.env[1]", "nestedTools[0]". */
  readonly field: string;
  /** What is wrong, naming the value (not the subject: the caller adds that). */
  readonly message: string;
  /** What to do about it. */
  readonly hint: string;
}

/** The SDK's one error class: a stable code, the subject (tool or agent) and field, and a message that says what to do. */
export class CaveError extends Error {
  override readonly name = "CaveError";
  readonly code: CaveCode;
  readonly subject: string;
  readonly field: string;
  readonly hint: string;
  /** Every rule the definition broke; `code`/`field` describe the first. */
  readonly violations: readonly Violation[];

  constructor(subject: string, violations: readonly Violation[]) {
    const first = violations[0];
    if (!first) throw new TypeError("CaveError needs at least one violation");
    const more =
      violations.length > 1
        ? ` (and ${violations.length - 1} more: ${violations
            .slice(1)
            .map((v) => `${v.code} ${v.field}`)
            .join(", ")})`
        : "";
    // The field is always named, since not every rule's message can name it by itself (nestedTools[1], sandboxProfile.env[0]).
    super(`${first.code} ${subject}, ${first.field}: ${first.message}. ${first.hint}${more}`);
    this.code = first.code;
    this.subject = subject;
    this.field = first.field;
    this.hint = first.hint;
    this.violations = violations;
  }
}
