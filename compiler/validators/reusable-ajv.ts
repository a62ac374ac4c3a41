import type { Ajv } from "ajv";
import { ValueScope } from "ajv/dist/compile/codegen/scope.js";
import { schemaAjv } from "./ajv-options.js";

/**
 * One schema Ajv (schemaAjv()) for many schemas, put back before each into the state a fresh one has: setting up an
 * Ajv (its vocabularies, the formats) costs about a quarter of compiling a typical schema, and the short-lived
 * instances add to garbage collection.
 *
 * What compiling leaves in an Ajv, and so what `fresh()` undoes:
 * - the value scope, which numbers the names of generated code (validate0, func1, formats2...) and keeps the
 *   values they stand for: replaced by a new scope made with the options the constructor gave the first one, so
 *   names start again from 0 and nothing of an earlier schema can be referred to;
 * - the schemas it added or cached (the compiled schema, anything registered by $id): removeSchema() drops them
 *   all (with meta: false there is no meta-schema to keep).
 * Everything else an Ajv holds (options, keywords, formats) is set up once and only read while compiling. A
 * compilation that throws leaves nothing behind that `fresh()` does not replace. The equivalence is not argued but
 * tested: every schema of the fixtures, the examples and the JSON Schema Test Suite gives byte-identical code
 * (or the same refusal) from a fresh Ajv and from this one, in any order (test/compiler/validators-reuse.test.ts).
 */
export class ReusableAjv {
  readonly #ajv: Ajv = schemaAjv();
  readonly #scopeOptions = this.#ajv.scope.opts;

  /** The instance, in the state of a fresh schemaAjv(). What it was used for before cannot reach its next code. */
  fresh(): Ajv {
    this.#ajv.removeSchema();
    // `scope` is read-only in Ajv's types only: Ajv itself reads this.scope each time it compiles.
    (this.#ajv as { scope: ValueScope }).scope = new ValueScope({ ...this.#scopeOptions, scope: {} });
    return this.#ajv;
  }
}
