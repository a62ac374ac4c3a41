import { readOptions } from "./contract/options.js";
import type { Violation } from "./errors.js";

/** CAVE1007 for each key of a definition's option object that the SDK does not know, with a did-you-mean hint. */
export function checkUnknownKeys(options: Record<string, unknown>, keys: readonly string[], prefix = ""): Violation[] {
  return readOptions(options, keys, prefix).flatMap((problem) =>
    problem.kind === "unknown"
      ? [
          {
            code: "CAVE1007" as const,
            field: problem.key,
            message: `unknown option "${problem.key}"`,
            hint: problem.hint,
          },
        ]
      : [],
  );
}
