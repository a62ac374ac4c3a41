import { Ajv, type Options } from "ajv";
import addFormatsModule from "ajv-formats";
import { useDecimalMultipleOf } from "./decimal-multiple-of.js";
import {
  linearDateTimes,
  linearRegex,
  linearUriTemplate,
  linearUris,
  linearUrl,
  useLinearUniqueItems,
} from "./linear-keywords.js";
import { FORMATS_CODE } from "./helpers.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object, whose `default` is the plugin.
const addFormats = (
  addFormatsModule as unknown as { default: (ajv: Ajv, options: { mode: "full"; keywords: boolean }) => Ajv }
).default;

/**
 * The one set of Ajv options every precompiled validator is generated with (and the differential tests compare
 * against). Each choice is deliberate:
 * - strictSchema: an unknown or ignored keyword is refused, because a misspelt constraint (`minLenght`) would
 *   otherwise validate nothing while the provider is told it holds.
 * - strictNumbers: NaN and Infinity are not numbers; JSON cannot carry them, so an output holding one must fail.
 * - strictTypes / strictTuples / strictRequired off: they refuse valid draft-07 schemas whose meaning is clear
 *   (a keyword without `type`, a tuple without maxItems, `required` naming an undeclared property), and in
 *   "log" mode they would print into the build output.
 * - allErrors off: stop at the first failure. Smaller, faster code, and Ajv's own security advice: with
 *   allErrors, slow keywords (pattern, uniqueItems) keep running on hostile input after it has already failed.
 * - ownProperties: only own properties are checked, which is what JSON.stringify sends on; an inherited
 *   property neither satisfies `required` nor escapes `additionalProperties`.
 * - verbose off: errors never carry the data, so an invalid raw value cannot leak through an error.
 * - useDefaults / coerceTypes / removeAdditional off: validation never changes the value it checks, so the
 *   hashed arguments are the validated ones.
 * - unicodeRegExp: patterns run with the u flag (code points, as the SDK checks them).
 * - allowMatchingProperties: a property that also matches a patternProperties key gets both subschemas, as
 *   draft-07 says; nothing is ambiguous, so strict mode need not refuse it.
 * - multipleOf is replaced by an exact decimal check (decimal-multiple-of.ts): 0.07 is a multiple of 0.01.
 * - logger off: nothing is printed; refusals become diagnostics.
 * - code.esm + code.source: standalone ESM. The runtime helpers and the formats are read from a prelude bundled
 *   once per set of helpers (helpers.ts, prelude.ts), so the module needs no require and no import.
 * - code.lines: one statement per line, so a validator module reads (and diffs) like code.
 * - code.optimize off: Ajv's optimisation pass (dropping unused temporaries and empty blocks) was about a third of
 *   compiling a schema; V8 drops the same at run time. Measured on 600 modules of the 1,000-tool benchmark: modules
 *   ~4% larger (8.4 KB against 8.1 KB), import plus first call and validation per call the same within noise.
 */
export const AJV_OPTIONS = {
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allErrors: false,
  ownProperties: true,
  verbose: false,
  messages: true,
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
  $data: false,
  unicodeRegExp: true,
  allowMatchingProperties: true,
  validateFormats: true,
  inlineRefs: true,
  addUsedSchema: false,
  logger: false,
  code: { source: true, esm: true, lines: true, optimize: false },
} as const satisfies Options;

/**
 * A fresh Ajv for one schema. Ajv numbers the names in generated code per instance (validate10, func2...), so a
 * shared instance would make a schema's code depend on the schemas compiled before it; a fresh one (or one put back
 * into that state, reusable-ajv.ts) makes it a function of the schema alone. The meta-schema is checked once by
 * `metaChecker()`, so the per-schema instance skips it (meta: false saves about a millisecond per schema).
 *
 * `sourceOnly` (the default): Ajv still builds a function from the code it generated, which the build never calls
 * (only its source is kept), and V8 parsing that code was about a third of compiling a schema. `code.process` runs
 * after Ajv has taken the source it keeps and before it builds the function, so it hands Ajv a one-line function
 * instead: the kept source, and so the module, is the same byte for byte (validators-reuse.test.ts compares both
 * ways over every schema of the fixtures, the examples and the JSON Schema Test Suite). Each compilation still gets
 * a function object of its own, which Ajv keys its scope by. The module's code is parsed first when it is loaded.
 */
export function schemaAjv(options: { readonly sourceOnly?: boolean } = {}): Ajv {
  const process = options.sourceOnly === false ? {} : { process: SOURCE_ONLY };
  return configure(
    new Ajv({
      ...AJV_OPTIONS,
      code: { ...AJV_OPTIONS.code, ...FORMATS_CODE, ...process },
      meta: false,
      validateSchema: false,
    }),
  );
}

/** The body Ajv builds its (never called) validate function from, in place of the generated code. */
const SOURCE_ONLY = (): string =>
  'return function sourceOnly() { throw new Error("a validator compiled for its source only was called"); };';

/** An Ajv with the same options that validates schemas against the draft-07 meta-schema (validateSchema is pure). */
export function metaChecker(): Ajv {
  return configure(new Ajv({ ...AJV_OPTIONS, code: { ...AJV_OPTIONS.code } }));
}

/**
 * The same options for validating in-process (tests compare the precompiled validators with it). Its code is never
 * shipped, so it keeps Ajv's optimisation: the differential tests then also compare unoptimised with optimised code.
 */
export function inProcessAjv(): Ajv {
  return configure(new Ajv({ ...AJV_OPTIONS, code: { esm: false, lines: false, optimize: true } }));
}

/**
 * Formats (ajv-formats, full mode, no formatMinimum-style keywords: not draft-07) with `url`, `uri`,
 * `uri-reference`, `uri-template`, `regex`, `date-time` and `iso-date-time` in linear time, the decimal multipleOf and the linear uniqueItems (linear-keywords.ts).
 * The precompiled modules read the same formats through the prelude (helpers.ts).
 */
function configure(ajv: Ajv): Ajv {
  addFormats(ajv, { mode: "full", keywords: false });
  ajv.addFormat("url", linearUrl);
  ajv.addFormat("uri-template", linearUriTemplate);
  ajv.addFormat("uri", linearUris.uri);
  ajv.addFormat("uri-reference", linearUris["uri-reference"]);
  ajv.addFormat("regex", linearRegex);
  ajv.addFormat("date-time", linearDateTimes["date-time"]);
  ajv.addFormat("iso-date-time", linearDateTimes["iso-date-time"]);
  useDecimalMultipleOf(ajv);
  useLinearUniqueItems(ajv);
  return ajv;
}
