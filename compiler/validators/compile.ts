import type { Ajv } from "ajv";
import { own } from "../../src/contract/dictionary.js";
import { SCHEMA_FORMATS } from "../../src/schema.js";
import { closest } from "../../src/contract/suggest.js";
import { metaChecker, schemaAjv } from "./ajv-options.js";
import { ReusableAjv } from "./reusable-ajv.js";
import { ajvBody } from "./ajv-body.js";
import { routeHelpers, type HelperName } from "./helpers.js";
import { precheck } from "./precheck.js";
import { refusal, type Refusal } from "./refusal.js";
import { walkSchema } from "./schema-walk.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/**
 * Ajv's standalone code for one schema without its exports (ajv-body.ts): the statements that define the validate
 * function named `validateName`, with the runtime helpers it reads from the prelude (helpers.ts); or why there is
 * none: a refusal (the schema's fault), `unsupported` (Ajv required a helper no prelude provides) or `fault` (its
 * code did not have the shape ajv-body.ts takes apart): the last two are faults of Cave, not of the schema.
 */
export type Compiled =
  | {
      readonly ok: true;
      readonly code: string;
      readonly validateName: string;
      readonly helpers: readonly HelperName[];
    }
  | { readonly ok: false; readonly refusal: Refusal }
  | { readonly ok: false; readonly unsupported: string }
  | { readonly ok: false; readonly fault: string };

const DRAFT_07_KEYWORDS = [
  "$id",
  "$schema",
  "$ref",
  "$comment",
  "title",
  "description",
  "default",
  "readOnly",
  "writeOnly",
  "examples",
  "deprecated",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "additionalItems",
  "items",
  "maxItems",
  "minItems",
  "uniqueItems",
  "contains",
  "maxProperties",
  "minProperties",
  "required",
  "additionalProperties",
  "definitions",
  "properties",
  "patternProperties",
  "dependencies",
  "propertyNames",
  "const",
  "enum",
  "type",
  "format",
  "contentMediaType",
  "contentEncoding",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
];
const NEWER_KEYWORDS: Readonly<Record<string, string>> = {
  minContains: "contains",
  maxContains: "contains",
  $defs: "definitions",
  dependentRequired: "dependencies",
  dependentSchemas: "dependencies",
  prefixItems: "items (as an array)",
  unevaluatedItems: "additionalItems",
  unevaluatedProperties: "additionalProperties",
  $anchor: "$id",
  $dynamicRef: "$ref",
  $dynamicAnchor: "$id",
  $recursiveRef: "$ref",
  $recursiveAnchor: "$id",
  $vocabulary: "nothing (remove it)",
};

/**
 * One schema (canonical JSON, so equal schemas give equal code) to Ajv's standalone code, or the reason it is
 * refused. Never throws: whatever Ajv throws becomes a refusal that keeps its message. `fresh` gives the schema Ajv
 * to compile with, in the state of a new schemaAjv() (by default a new one).
 */
export function compileStandalone(schema: unknown, meta: Ajv, fresh: () => Ajv = schemaAjv): Compiled {
  try {
    const early = precheck(schema, meta);
    if (early) return { ok: false, refusal: early };
    const ajv = fresh();
    const use = routeHelpers(ajv);
    const validate = ajv.compile(schema as object);
    const body = ajvBody(ajv, validate);
    if (use.unsupported.size > 0) return { ok: false, unsupported: [...use.unsupported].sort().join(", ") };
    if (!body.ok) return body;
    return { ok: true, code: body.code, validateName: body.validateName, helpers: [...use.helpers].sort() };
  } catch (thrown) {
    return { ok: false, refusal: classify(thrown, schema) };
  }
}

/**
 * compileStandalone with one meta-schema checker and one schema Ajv, reset before each schema (reusable-ajv.ts), for
 * all schemas of a thread: setting up an Ajv costs about a quarter of compiling a schema.
 */
export function standaloneCompiler(): (schema: unknown) => Compiled {
  const meta = metaChecker();
  const reusable = new ReusableAjv();
  const fresh = () => reusable.fresh();
  return (schema) => compileStandalone(schema, meta, fresh);
}

function classify(thrown: unknown, schema: unknown): Refusal {
  const message = thrownText(thrown);
  const unknownKeyword = /^strict mode: unknown keyword: "(.*)"$/.exec(message);
  if (unknownKeyword) {
    const keyword = unknownKeyword[1] ?? "";
    const at = locate(schema, (node) => Object.hasOwn(node, keyword));
    const newer = own(NEWER_KEYWORDS, keyword);
    const guess = closest(keyword, DRAFT_07_KEYWORDS);
    const hint =
      newer !== undefined
        ? `"${keyword}" belongs to JSON Schema 2019-09/2020-12, not draft-07; express it with ${newer}, or remove it.`
        : guess !== undefined
          ? `Did you mean "${guess}"? Unknown keywords are refused, not ignored, because an ignored constraint validates nothing.`
          : "Remove it, or move the information into description; unknown keywords are refused, not ignored, because an ignored constraint validates nothing.";
    return refusal("CAVE6004", `unknown keyword ${JSON.stringify(keyword)} at ${at}`, hint);
  }
  const unknownFormat = /^unknown format "(.*)" ignored in schema at path "(.*)"$/.exec(message);
  if (unknownFormat) {
    const format = unknownFormat[1] ?? "";
    const guess = closest(format, SCHEMA_FORMATS);
    return refusal(
      "CAVE6006",
      `unknown format ${JSON.stringify(format)} at ${unknownFormat[2] ?? "#"}`,
      `${guess ? `Did you mean "${guess}"? ` : ""}Known formats: ${SCHEMA_FORMATS.join(", ")}; or use a pattern.`,
    );
  }
  const missingRef = (thrown as { missingRef?: unknown } | null)?.missingRef;
  if (typeof missingRef === "string" || /^can't resolve reference /.test(message)) {
    const ref = /^can't resolve reference (.*) from id /.exec(message)?.[1] ?? String(missingRef);
    const at = locate(
      schema,
      (node) => node.$ref === ref || (typeof node.$ref === "string" && ref.startsWith(node.$ref)),
    );
    const remote = !ref.startsWith("#");
    return refusal(
      "CAVE6007",
      `$ref ${JSON.stringify(ref)} at ${at} cannot be resolved${remote ? " (it points at another document)" : ""}`,
      remote
        ? "Precompiled validators are self-contained: inline that schema, or copy it under definitions and refer to it as #/definitions/<name>."
        : "Point $ref at an existing subschema, e.g. #/definitions/<name>.",
    );
  }
  if (thrown instanceof SyntaxError && /regular expression/i.test(message)) {
    return refusal(
      "CAVE6005",
      `a regular expression is invalid: ${message}`,
      "Fix the pattern; it runs with the u flag.",
    );
  }
  return refusal(
    "CAVE6010",
    `Ajv refused the schema: ${message}`,
    "Change the schema as the message says; the validator compiler runs in strict mode so that nothing in a schema is silently ignored.",
  );
}

function locate(schema: unknown, test: (node: Readonly<Record<string, unknown>>) => boolean): string {
  for (const node of walkSchema(schema)) if (test(node.schema)) return node.pointer;
  return "#";
}
