import { describePath, type DataProblem } from "./json-data.js";
import { NOT_DATA } from "../sandbox/child/data-rules.mjs";
import type { Failure } from "./state.js";

/**
 * The outcome for an output that cannot cross as JSON data, in-process and from the sandbox alike. With
 * an output schema (`typed`) the value is withheld as OUTPUT_INVALID would withhold it: the message says
 * what kind of value it was, never where (a path is made of the value's own keys) nor a class name.
 */
export function outputProblem(
  who: string,
  verb: string,
  problem: DataProblem | null,
  limit: number,
  typed: boolean,
): Failure {
  if (problem?.kind === "too-large") {
    return {
      code: "OUTPUT_TOO_LARGE",
      message: `${who} ${verb} at least ${problem.bytes} bytes of JSON, over the ${limit}-byte limit (limits.maxOutputBytes); nothing was kept. Return less, or raise the limit`,
    };
  }
  if (problem?.kind === "too-deep") {
    return {
      code: "OUTPUT_TOO_DEEP",
      message: `${who} ${verb} a value that nests objects and arrays more than ${problem.maxDepth} levels deep; nothing was kept. Return flatter data`,
    };
  }
  if (problem?.kind === "native") {
    return {
      code: "OUTPUT_NOT_SERIALISABLE",
      message: `${who} ${verb} a value that JSON.stringify cannot write: ${problem.what}; nothing was kept. Return data JSON.stringify can write (no BigInt, no cycle, no getter or toJSON that throws)`,
    };
  }
  const plain = "Return plain objects, arrays, strings, finite numbers, booleans and null";
  if (typed) {
    const kind =
      problem === null
        ? "a value"
        : problem.kind === "pollution"
          ? NOT_DATA.pollution
          : problem.what.startsWith("an instance of ")
            ? "a class instance"
            : problem.what;
    return {
      code: "OUTPUT_NOT_SERIALISABLE",
      message: `${who} ${verb} a value that is not plain JSON data (${kind}), which a tool with an output schema must return; it is withheld and nothing was dropped or converted. ${plain}`,
    };
  }
  const what =
    problem === null
      ? "a value"
      : problem.kind === "pollution"
        ? `${NOT_DATA.pollution} at ${describePath(problem.path)}`
        : `${problem.what} at ${describePath(problem.path)}`;
  return {
    code: "OUTPUT_NOT_SERIALISABLE",
    message: `${who} ${verb} a value that is not plain JSON data: ${what}; nothing was dropped or converted. ${plain}`,
  };
}
