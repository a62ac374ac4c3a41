import type { Ajv } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";

// CommonJS under NodeNext: the default import is the module object.
const standaloneCode = (standaloneModule as unknown as { default: (ajv: Ajv, validate: unknown) => string }).default;

export type AjvBody =
  | { readonly ok: true; readonly code: string; readonly validateName: string }
  | { readonly ok: false; readonly fault: string };

/**
 * Ajv's standalone code for one compiled schema as statements a function body can hold: the scope's constants and
 * the validate function (named `validateName`), without the `"use strict"` and the two export statements Ajv puts
 * first. A validator is compiled by the runtime as a function body, not imported as a module (docs/decisions.md,
 * "Validators compiled in memory from the verified bytes"), and a body cannot export. Ajv (pinned exactly) writes
 * those three statements as one fixed text before the rest; they are checked to be exactly that, so a change in
 * how Ajv writes them is a fault reported at build time rather than a validator that exports nothing.
 */
export function ajvBody(ajv: Ajv, validate: unknown): AjvBody {
  const source = (validate as { source?: { validateName?: unknown } }).source;
  const name = String(source?.validateName ?? "");
  const code = standaloneCode(ajv, validate);
  const n = `${ajv.scope.opts._n}`;
  const head = `"use strict";${n}export const validate = ${name};${n}export default ${name};${n}`;
  if (!/^validate[0-9]+$/.test(name) || !code.startsWith(head))
    return { ok: false, fault: "Ajv's standalone code does not start with the export statements ajv-body.ts removes" };
  return { ok: true, code: code.slice(head.length), validateName: name };
}
