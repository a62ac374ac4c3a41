import { EFFECTS } from "../../src/contract/effects.js";
import { MAX_TIMEOUT_MS, TOOL_NAME_PATTERN } from "../../src/contract/names.js";
import { discriminators } from "./lock-shape.generated.js";

/** The part of an Ajv error the generated validators (lock-shape.generated.ts) report. */
export interface ShapeError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly propertyName?: string;
}

/**
 * What a value at a place of docs/cave.lock.schema.json must be, in words, where the keyword alone would say less:
 * a definition, or a property named by its path from the schema the validator function was compiled from (Ajv names a
 * place from the nearest definition compiled as its own function: `#/properties/effect` inside the tool's). A problem
 * inside one (an item of an array, say) is reported at the place itself.
 */
const EXPECTED: ReadonlyMap<string, string> = new Map([
  ["#/definitions/hash", "a sha256-<64 hex> hash"],
  ["#/definitions/relativePath", "a POSIX path relative to the project root, inside it"],
  ["#/definitions/name", `named by ${TOOL_NAME_PATTERN}`],
  ["#/definitions/sortedNames", "a sorted array of distinct tool names"],
  [
    "#/definitions/fsScopes",
    "a sorted array of distinct, normalised filesystem scopes (relative to the project, or under $SETTING)",
  ],
  ["#/definitions/egressEntry", "a sorted array of distinct egress entries (host or *.host, optional :port)"],
  ["#/properties/externals/propertyNames", "keyed by an install path (node_modules/<name>, possibly after ../)"],
  ["#/properties/effect", `one of ${EFFECTS.join(", ")}`],
  ["#/properties/timeoutMs", `an integer from 1 to ${MAX_TIMEOUT_MS}`],
  ["#/properties/sandbox/properties/env", "an array of distinct environment names"],
  ["#/properties/source/properties/externals", "a sorted array of distinct install paths"],
]);

/**
 * The first problem the generated validator found, as "<path> must be <expected>" with the lock's path in dots
 * (`tools.lookup.sandbox.env`); `prefix` is where the validated value sits in the lock ("" for the header, the tool's
 * `tools.<name>` for an entry). The one wording of a shape problem: the schema states the shape, this names it.
 */
export function shapeProblem(error: ShapeError, prefix: string): string {
  const at = [...(prefix === "" ? [] : [prefix]), ...pointer(error.instancePath)];
  if (error.propertyName !== undefined) return must([...at, error.propertyName], expectedAt(error) ?? "an allowed key");
  switch (error.keyword) {
    case "required":
      return must([...at, String(error.params.missingProperty)], "present");
    case "additionalProperties":
      return must([...at, String(error.params.additionalProperty)], "absent (unknown key)");
    case "discriminator": {
      const holder = /\/properties\/([^/]+)\/discriminator$/.exec(error.schemaPath)?.[1];
      const tag =
        holder === undefined
          ? undefined
          : (discriminators as Record<string, { tag: string; values: string[] }>)[holder];
      return must([...at, String(error.params.tag)], tag === undefined ? "a known kind" : or(tag.values));
    }
  }
  const known = expectedPlace(error.schemaPath);
  if (known !== undefined) return must(at.slice(0, at.length - known.below), known.expected);
  return must(at, byKeyword(error));
}

function expectedAt(error: ShapeError): string | undefined {
  return expectedPlace(error.schemaPath)?.expected;
}

/** The EXPECTED entry the error's schema path is inside, and how many levels of the value lie below that place. */
function expectedPlace(schemaPath: string): { expected: string; below: number } | undefined {
  for (const [place, expected] of EXPECTED) {
    if (schemaPath !== place && !schemaPath.startsWith(`${place}/`)) continue;
    const rest = schemaPath.slice(place.length + 1).split("/");
    let below = 0;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === "items" || rest[i] === "additionalProperties") below++;
      else if (rest[i] === "properties") below++, i++;
    }
    return { expected, below };
  }
  return undefined;
}

/** What a keyword asks for, in words. */
function byKeyword(error: ShapeError): string {
  const p = error.params;
  switch (error.keyword) {
    case "type": {
      const types = String(p.type).split(",");
      return types.map((t) => (t === "null" ? "null" : `${/^[aeiou]/.test(t) ? "an" : "a"} ${t}`)).join(" or ");
    }
    case "const":
      return JSON.stringify(p.allowedValue);
    case "enum":
      return (p.allowedValues as unknown[]).length <= 2
        ? or(p.allowedValues as unknown[])
        : `one of ${(p.allowedValues as unknown[]).join(", ")}`;
    case "minLength":
      return p.limit === 1 ? "a non-empty string" : `a string of at least ${String(p.limit)} characters`;
    case "uniqueItems":
      return "an array of distinct items";
    case "pattern":
      return `a string matching ${String(p.pattern)}`;
    default:
      return `as ${error.schemaPath} of docs/cave.lock.schema.json says`;
  }
}

function or(values: readonly unknown[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length <= 1 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

function must(path: readonly string[], expected: string): string {
  return `${path.length === 0 ? "(top level)" : path.join(".")} must be ${expected}`;
}

/** A JSON pointer's segments, unescaped. */
function pointer(path: string): string[] {
  return path === ""
    ? []
    : path
        .slice(1)
        .split("/")
        .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}
