import type { Ajv } from "ajv";
import { isObject, walkSchema } from "./schema-walk.js";
import { refusal, type Refusal } from "./refusal.js";
import { redosVerdict } from "./redos.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

// The id Ajv registers the draft-07 meta-schema under (with or without the empty fragment).
const DRAFT_07 = /^http:\/\/json-schema\.org\/draft-07\/schema#?$/;

// Keywords that only annotate: harmless next to $ref (providers read them, validation ignores them either way).
const REF_COMPANIONS = new Set([
  "$ref",
  "$id",
  "$schema",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "readOnly",
  "writeOnly",
  "deprecated",
  "definitions",
]);

/**
 * What Ajv would accept but must not be precompiled, checked before Ajv sees the schema so the message can name
 * the place: another dialect, a meta-schema violation, a regex that fails under the u flag (Ajv would only fail
 * when the generated module is imported, for patternProperties), keywords beside $ref, $async.
 */
export function precheck(schema: unknown, meta: Ajv): Refusal | null {
  if (typeof schema === "boolean") return null;
  if (!isObject(schema)) {
    return refusal(
      "CAVE6001",
      `the schema is ${describe(schema)}, not a JSON Schema object`,
      "Give a schema.* value or a draft-07 JSON Schema object.",
    );
  }
  const dialect = schema.$schema;
  if (dialect !== undefined && !(typeof dialect === "string" && DRAFT_07.test(dialect))) {
    return refusal(
      "CAVE6002",
      `$schema is ${JSON.stringify(dialect)}, not draft-07`,
      'Cave validates and sends draft-07: remove $schema or set it to "http://json-schema.org/draft-07/schema#" (and convert the schema if it uses newer keywords).',
    );
  }
  let conforms: boolean;
  try {
    conforms = meta.validateSchema(schema) as boolean;
  } catch (thrown) {
    return refusal(
      "CAVE6003",
      `the schema could not be checked against draft-07: ${thrownText(thrown)}`,
      "Write the schema as plain draft-07 JSON Schema.",
    );
  }
  if (!conforms) {
    const first = meta.errors?.[0];
    const where = `#${first?.instancePath ?? ""}`;
    const all = meta.errorsText(meta.errors, { dataVar: "#", separator: "; " });
    return refusal(
      "CAVE6003",
      `the schema is not valid draft-07 at ${where}: ${all}`,
      `Fix the value at ${where} so it matches the draft-07 meta-schema.`,
    );
  }
  if (schema.$async === true) {
    return refusal(
      "CAVE6009",
      "the schema sets $async: true, which would make validation asynchronous",
      "Remove $async: tool input and output are validated synchronously.",
    );
  }
  for (const node of walkSchema(schema)) {
    const bad = badRegex(node.schema);
    if (bad)
      return refusal(
        "CAVE6005",
        `${bad.where} at ${node.pointer} is not a valid regular expression with the u flag (${bad.reason})`,
        'Fix the expression; it runs as new RegExp(pattern, "u"), where escapes such as \\- outside a character class are errors.',
      );
    const slow = superLinear(node.schema);
    if (slow) {
      return refusal(
        "CAVE6180",
        `${slow.where} at ${node.pointer} can take super-linear time: ${slow.why}; a tool's result or the model's arguments would stall the host's validator past any deadline`,
        "Rewrite it so that no two parts can match the same text (for example ^[a-z]+(?:-[a-z]+)*$ instead of ^([a-z]+-?)*$, [^,]*,.* instead of .*,.*), anchor it, or check the value in the tool's code.",
      );
    }
    if (typeof node.schema.$ref === "string") {
      const extra = Object.keys(node.schema)
        .filter((key) => !REF_COMPANIONS.has(key))
        .sort();
      if (extra.length > 0) {
        return refusal(
          "CAVE6008",
          `the schema at ${node.pointer} has ${extra.map((k) => JSON.stringify(k)).join(", ")} next to $ref; draft-07 ignores them but the validator would apply them`,
          `Wrap them so both agree: { "allOf": [{ "$ref": ${JSON.stringify(node.schema.$ref)} }, { ...${extra.join(", ")} }] }.`,
        );
      }
    }
  }
  return null;
}

/** Every regular expression of one subschema the validator runs: `pattern` and the patternProperties keys, with how to name each. */
function regexes(schema: Readonly<Record<string, unknown>>): Array<[string, unknown]> {
  const candidates: Array<[string, unknown]> = [];
  if ("pattern" in schema) candidates.push([`pattern ${JSON.stringify(schema.pattern)}`, schema.pattern]);
  if (isObject(schema.patternProperties))
    for (const key of Object.keys(schema.patternProperties))
      candidates.push([`patternProperties key ${JSON.stringify(key)}`, key]);
  return candidates;
}

/** The first valid expression of the subschema that recheck does not prove linear (redos.ts), or null. */
function superLinear(schema: Readonly<Record<string, unknown>>): { where: string; why: string } | null {
  for (const [where, source] of regexes(schema)) {
    if (typeof source !== "string") continue;
    const verdict = redosVerdict(source);
    if (!verdict.linear) return { where, why: verdict.why };
  }
  return null;
}

function badRegex(schema: Readonly<Record<string, unknown>>): { where: string; reason: string } | null {
  for (const [where, source] of regexes(schema)) {
    if (typeof source !== "string") continue;
    try {
      new RegExp(source, "u");
    } catch (thrown) {
      return { where, reason: thrownText(thrown) };
    }
  }
  return null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
