import type { CodeEntry } from "./types.js";

/** CAVE6xxx: the validators pass (precompiled Ajv standalone validators for transparent schemas). */
export const VALIDATORS_CODES = {
  CAVE6001: {
    title: "Schema is not a JSON Schema",
    doc: "A transparent (TypeBox / plain JSON Schema) input or output schema is not a JSON object (or boolean), or holds values JSON cannot carry (undefined, functions, non-finite numbers). Build it with schema.* or write plain draft-07 JSON Schema.",
  },
  CAVE6002: {
    title: "Unsupported JSON Schema dialect",
    doc: "The schema's $schema names a dialect other than draft-07. Cave precompiles and sends draft-07 to providers: remove $schema or set it to http://json-schema.org/draft-07/schema#.",
  },
  CAVE6003: {
    title: "Schema does not conform to draft-07",
    doc: "The schema fails the draft-07 meta-schema (for example a negative minLength, a type name that does not exist, required that is not an array of strings). The message names the keyword's location; fix its value.",
  },
  CAVE6004: {
    title: "Unknown schema keyword",
    doc: "The schema has a keyword that draft-07 does not define (often a misspelling such as minLenght, or a 2019-09/2020-12 keyword such as minContains or $defs). Unknown keywords are refused rather than ignored, because an ignored constraint validates nothing. Fix the spelling or remove it.",
  },
  CAVE6005: {
    title: "Invalid regular expression in a schema",
    doc: "A pattern (or a patternProperties key) is not a valid ECMAScript regular expression with the u flag, which is how the validator runs it. Fix the expression; in u mode escapes such as \\- outside a class are errors.",
  },
  CAVE6006: {
    title: "Unknown string format",
    doc: "A format is not one the validators implement (ajv-formats full mode: date, time, date-time, duration, uri, uri-reference, uri-template, url, email, hostname, ipv4, ipv6, regex, uuid, json-pointer, relative-json-pointer, byte, int32, int64, float, double, password, binary, iso-time, iso-date-time). Use one of them, or a pattern.",
  },
  CAVE6007: {
    title: "Unresolvable $ref",
    doc: "A $ref points at nothing inside the schema, or at another document (a URL). Precompiled validators are self-contained: inline the referenced schema, or put it under definitions and refer to it with #/definitions/<name>.",
  },
  CAVE6008: {
    title: "Keywords next to $ref",
    doc: 'In draft-07 every keyword beside $ref is ignored, but the validator would apply it, so the provider and the validator would disagree. Wrap them: { "allOf": [{ "$ref": ... }, { ...the other keywords }] }. Annotations (title, description, default, examples, $comment) may stay.',
  },
  CAVE6009: {
    title: "Asynchronous schema",
    doc: "The schema sets $async: true, which makes the validator return a promise; tool validation is synchronous. Remove $async.",
  },
  CAVE6010: {
    title: "Schema refused by the validator compiler",
    doc: "Ajv (strict mode) refused the schema for another reason, quoted in the message: for example then/else without if, or two subschemas with the same $id. Fix the schema as the message says.",
  },
  CAVE6180: {
    title: "Pattern with super-linear backtracking",
    doc: "A pattern (or a patternProperties key) can take polynomial or exponential time on some input in a backtracking engine, which is how the host's validator runs it: a tool's result or the model's arguments could stall the host past the tool's deadline (ReDoS). The checker (recheck, pure JavaScript, deterministic) names the complexity and an input that stalls it. Rewrite the expression so that no two parts can match the same text, anchor it, or check the value in the tool's code.",
  },
  CAVE6011: {
    title: "Validator generation failed",
    doc: "Bundling a precompiled validator into a self-contained module failed, or the result still needed a module at run time. This is a fault in Cave or its installation, not in your schema: reinstall dependencies, and report it with the message if it persists.",
  },
} as const satisfies Record<string, CodeEntry>;
