import { _, Name, type Ajv } from "ajv";
import { LINEAR_DATE_TIME_SOURCE } from "./linear-date-time.js";
import { LINEAR_REGEX_SOURCE } from "./linear-regex.js";
import { LINEAR_URI_SOURCE } from "./linear-uri.js";
import { LINEAR_URL_SOURCE } from "./linear-url.js";
import { LINEAR_URI_TEMPLATE_SOURCE } from "./linear-uri-template.js";

/**
 * The name a precompiled validator reads Ajv's runtime helpers from. Its prelude (prelude.ts) defines it; Ajv's
 * own names (validate0, func1, schema2, formats3...) never start with underscores, so nothing can shadow it.
 */
export const HELPERS_GLOBAL = "__caveAjvRuntime";

/**
 * The runtime helpers a precompiled validator may need, by the name the prelude gives them, each with the exact
 * expression Ajv's standalone code would have used to require it. Nothing else may be required: the options
 * (ajv-options.ts) and the prechecks (no $async, so no ValidationError) keep every other helper out.
 */
export const HELPERS = {
  equal: 'require("ajv/dist/runtime/equal").default',
  // ajv-formats' formats with the super-linear ones replaced (linear-url.ts, linear-uri.ts, linear-uri-template.ts, linear-regex.ts,
  // linear-date-time.ts): the prelude defines them from their sources.
  fullFormats: `((formats) => Object.assign({}, formats, { url: ${LINEAR_URL_SOURCE}, "uri-template": ${LINEAR_URI_TEMPLATE_SOURCE}, regex: ${LINEAR_REGEX_SOURCE}(require("@eslint-community/regexpp").RegExpValidator) }, ${LINEAR_URI_SOURCE}, ${LINEAR_DATE_TIME_SOURCE}(formats)))(require("ajv-formats/dist/formats").fullFormats)`,
  ucs2length: 'require("ajv/dist/runtime/ucs2length").default',
  uri: 'require("ajv/dist/runtime/uri").default',
} as const;

export type HelperName = keyof typeof HELPERS;

const HELPER_BY_REQUIRE = new Map<string, HelperName>(
  Object.entries(HELPERS).map(([name, expression]) => [expression, name as HelperName]),
);
const FORMATS = _`${new Name(HELPERS_GLOBAL)}.fullFormats`;

/** What one compilation referred to: the helpers it needs, and any require it made that no prelude provides. */
export interface HelperUse {
  readonly helpers: Set<HelperName>;
  readonly unsupported: Set<string>;
}

/** The code option that makes the formats keyword read `__caveAjvRuntime.fullFormats[...]` instead of requiring ajv-formats. */
export const FORMATS_CODE = { formats: FORMATS } as const;

/**
 * Makes a fresh Ajv's generated code read its runtime helpers from HELPERS_GLOBAL instead of `require(...)`, and
 * records which it used. Ajv names a helper by the code of its scope value (`const func2 = <code>;`), set where
 * the value is registered; this rebinds that code for the known helpers, at registration, on this instance only.
 * The formats come in through the `code.formats` option (FORMATS_CODE), so they are only recorded here.
 */
export function routeHelpers(ajv: Ajv): HelperUse {
  const use: HelperUse = { helpers: new Set(), unsupported: new Set() };
  const scope = ajv.scope;
  const register = scope.value.bind(scope);
  scope.value = (nameOrPrefix, value) => {
    const code = value.code?.toString();
    const helper = code === undefined ? undefined : HELPER_BY_REQUIRE.get(code);
    if (helper !== undefined) {
      use.helpers.add(helper);
      return register(nameOrPrefix, { ...value, code: _`${new Name(HELPERS_GLOBAL)}.${new Name(helper)}` });
    }
    if (code?.startsWith(FORMATS.toString())) use.helpers.add("fullFormats");
    else if (code?.startsWith("require(")) use.unsupported.add(code);
    return register(nameOrPrefix, value);
  };
  return use;
}
