import type { ValidationIssue } from "../dispatch/types.js";

/** Up to three validator issues as "at /path: message", for input messages (never for output: it would show the value's shape). */
export function describeIssues(issues: ReadonlyArray<ValidationIssue>): string {
  if (issues.length === 0) return "it was rejected";
  const shown = issues
    .slice(0, 3)
    .map(
      (issue) => `at ${issue.path === "" ? "the top level" : issue.path.slice(0, 200)}: ${issue.message.slice(0, 300)}`,
    );
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
  return `${shown.join("; ")}${more}`;
}
