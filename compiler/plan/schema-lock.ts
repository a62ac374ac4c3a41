import type { LockedSchema } from "../../src/contract/lock.js";
import { hashJson } from "../../src/contract/hash.js";
import { sortKeys } from "../emit/render.js";
import type { EvaluatedSchema, ValidatorModule } from "../types.js";

/** How one side (input or output) of a tool is locked: its provider JSON Schema and how it is validated. */
export function lockSchema(
  schema: EvaluatedSchema | null,
  semanticsSHA256: string | null,
  validators: ReadonlyMap<string, ValidatorModule>,
): LockedSchema | null {
  if (schema === null) return null;
  const jsonSchema = schema.jsonSchema;
  // Sorted first: canonical JSON of key-sorted data is JSON.stringify's own (hash.ts's fast path), several times
  // faster than the general serialiser on schemas as evaluated. The same hash either way.
  const sha256 = jsonSchema === null ? null : hashJson(sortKeys(jsonSchema));
  if (schema.kind === "typebox") {
    const validator = sha256 === null ? undefined : validators.get(sha256);
    if (!validator) throw new Error(`internal: no precompiled validator for schema ${sha256}`);
    return {
      jsonSchema,
      sha256,
      validation: { kind: "precompiled", module: validator.path, sha256: validator.sha256 },
    };
  }
  if (semanticsSHA256 === null) throw new Error("internal: opaque schema without a semantics hash reached the planner");
  return { jsonSchema, sha256, validation: { kind: "opaque", vendor: schema.vendor, semanticsSHA256 } };
}
