import { _, type Code, CodeGen, type Name, nil } from "ajv/dist/compile/codegen/index.js";
import { _Code } from "ajv/dist/compile/codegen/code.js";

/** How the serializers' code is written (canonical.ts): one statement per line, ES2015+. */
export const SERIALIZER_CODEGEN_OPTIONS = { es5: false, lines: true, ownProperties: false } as const;

/**
 * Emits `const name = (function (param) { body });`: a function V8 compiles with the code around it, where a function
 * declaration (`gen.func`) is only pre-parsed there and parsed again in full at its first call. Every function of a
 * serializer runs on its tool's first call, so the second parse was pure cost: with 1,000 tools the serializers' lazy
 * compilation was ~450 ms of the ~1.6 s that calling each once took (docs/benchmarks.md, "Every tool once"). V8
 * compiles a function literal in parentheses eagerly (its "PIFE" heuristic).
 *
 * The body is written by its own CodeGen, rendered and placed as the initialiser; that CodeGen shares the outer one's
 * name scope, so no name it declares can shadow one of the code around it.
 */
export function eagerFunction(gen: CodeGen, name: Name, param: Code, body: (gen: CodeGen) => void): void {
  const inner = new CodeGen(gen._extScope, SERIALIZER_CODEGEN_OPTIONS);
  // One name scope for both (a CodeGen has no public way to share it): every name stays unique in the module.
  Object.defineProperty(inner, "_scope", { value: gen._scope });
  inner.func(nil as unknown as Name, param, false, () => body(inner));
  gen.const(name, _`(${new _Code(inner.toString().trimEnd())})`);
}
