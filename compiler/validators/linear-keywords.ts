import { _, str, type Ajv, type KeywordCxt } from "ajv";
import { useFunc } from "ajv/dist/compile/util.js";
import { RegExpValidator } from "@eslint-community/regexpp";
import { createRequire } from "node:module";
import { fromSource } from "./from-source.js";
import { LINEAR_DATE_TIME_SOURCE } from "./linear-date-time.js";
import { LINEAR_REGEX_SOURCE } from "./linear-regex.js";
import { LINEAR_URI_SOURCE } from "./linear-uri.js";
import { LINEAR_URL_SOURCE } from "./linear-url.js";
import { LINEAR_URI_TEMPLATE_SOURCE } from "./linear-uri-template.js";

/**
 * `uniqueItems` in linear time. Ajv compares every pair of items with deep equality when the items
 * are not all scalars (quadratic: the model alone could stall the host with one large array of
 * objects). Here each item gets its canonical text once (object keys sorted, strings quoted, so two
 * items have the same text exactly when they are deep-equal as JSON) and a Map finds a repeat in one
 * pass. The error is Ajv's: the highest index i that repeats an earlier item, and the highest such j.
 *
 * The source is the single definition, embedded as is in every generated validator and evaluated once
 * here for in-process validation (as decimal-multiple-of.ts does).
 */
export const DUPLICATE_ITEMS_SOURCE = `(function duplicateItems(items) {
  const text = (value) => {
    if (value === null || typeof value !== "object") return typeof value === "string" ? JSON.stringify(value) : typeof value + ":" + String(value);
    if (Array.isArray(value)) return "[" + value.map(text).join(",") + "]";
    return "{" + Object.keys(value).sort().map((key) => JSON.stringify(key) + ":" + text(value[key])).join(",") + "}";
  };
  const seen = new Map();
  let found = null;
  for (let k = 0; k < items.length; k++) {
    const key = text(items[k]);
    const earlier = seen.get(key);
    if (earlier !== undefined) found = [k, earlier];
    seen.set(key, k);
  }
  return found;
})`;

const duplicateItems = Object.assign(
  fromSource<(items: unknown[]) => [number, number] | null>(DUPLICATE_ITEMS_SOURCE),
  { code: DUPLICATE_ITEMS_SOURCE },
);
export const linearUrl = fromSource<(value: string) => boolean>(LINEAR_URL_SOURCE);
export const linearUriTemplate = fromSource<(value: string) => boolean>(LINEAR_URI_TEMPLATE_SOURCE);
export const linearUris =
  fromSource<Readonly<Record<"uri" | "uri-reference", (value: string) => boolean>>>(LINEAR_URI_SOURCE);
export const linearDateTimes = fromSource<
  (formats: unknown) => Readonly<Record<"date-time" | "iso-date-time", (value: string) => boolean>>
>(LINEAR_DATE_TIME_SOURCE)(
  (createRequire(import.meta.url)("ajv-formats/dist/formats") as { fullFormats: unknown }).fullFormats,
);
export const linearRegex =
  fromSource<(validator: typeof RegExpValidator) => (value: string) => boolean>(LINEAR_REGEX_SOURCE)(RegExpValidator);

/** Replaces Ajv's uniqueItems with the linear one; errors keep Ajv's message and params ({i, j}). */
export function useLinearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    error: {
      message: ({ params }) => str`must NOT have duplicate items (items ## ${params.j} and ${params.i} are identical)`,
      params: ({ params }) => _`{i: ${params.i}, j: ${params.j}}`,
    },
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const fn = useFunc(cxt.gen, duplicateItems);
      const found = cxt.gen.const("duplicate", _`${fn}(${cxt.data})`);
      cxt.setParams({ i: _`${found}[0]`, j: _`${found}[1]` });
      cxt.fail(_`${found} !== null`);
    },
  });
}
