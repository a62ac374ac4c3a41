import { _, and, CodeGen, Name, nil, not, or, type Code } from "ajv/dist/compile/codegen/index.js";
import { ValueScope } from "ajv/dist/compile/codegen/scope.js";
import { eagerFunction, SERIALIZER_CODEGEN_OPTIONS } from "./eager-function.js";
import { canonicalPlan, type CanonicalPlan, type LeafType } from "../../runtime/canonical/plan.js";
import { arrayCondition, leafCondition, objectCondition, type CheckNames, UNDECIDED } from "./canonical-checks.js";

/** The function the fragment defines: called once, it returns `canonical` (the validator's body calls it, assemble.ts). */
export const SERIALIZER_FACTORY = new Name("canonicalSerializer");

/**
 * The source of a fragment defining SERIALIZER_FACTORY, which returns `canonical(value, maxBytes)`, the canonical-JSON serializer of one
 * schema, or undefined when the schema's shape is not fixed at build time (open objects, `any`, unions of
 * objects, references): those values take the runtime's general walk (runtime/pipeline/json-data.ts). `canonical`
 * reads each property of a value of the schema's shape exactly once and returns `{ value, sorted, bytes, valid }`: a
 * detached copy (keys in the value's own order), a second detached copy whose closed objects have their keys
 * inserted in code-unit order (known here, so nothing is sorted), of which one native JSON.stringify is the RFC 8785
 * text, and a lower bound of that text's UTF-8 bytes. The twin shares no object with the copy: the runtime writes
 * the text only when something reads it (a receipt's hash, a result plan), and the copy may have been changed by
 * then by whoever received it. The same decision, bytes and copy as the general walk
 * (test/runtime/canonical-differential.test.ts). `valid` says that every keyword of the schema the walk reached is
 * one it decides (canonical-checks.ts) and held: the validator accepts the copy and need not run
 * (test/runtime/canonical-validates.test.ts); false leaves the verdict to the validator. It
 * returns undefined, having changed nothing, for anything else: a value of another shape, an extra key, a class
 * instance, a lone surrogate, a non-finite number, more than `maxBytes` of strings and items, a getter
 * that starts another walk. The general walk then decides, and every such value is one it refuses.
 * Emitted through Ajv's code generator, as the validators are: every key and value is quoted by it.
 */
export function canonicalSerializerSource(schema: unknown): string | undefined {
  const plan = canonicalPlan(schema);
  return plan === undefined ? undefined : serializerSourceOf(plan);
}

/** canonicalSerializerSource's fragment for a plan already worked out (pass.ts also writes the plan into the file). */
export function serializerSourceOf(plan: CanonicalPlan): string {
  const gen = new CodeGen(new ValueScope({ scope: {} }), SERIALIZER_CODEGEN_OPTIONS);
  // Everything lives inside one function, so no name of it can meet one of Ajv's module-level names.
  eagerFunction(gen, SERIALIZER_FACTORY, nil, (gen) => emitModule(gen, plan));
  return gen.toString();
}

function emitModule(gen: CodeGen, plan: CanonicalPlan): void {
  const state: EmitState = {
    n: gen.let("n", 0),
    max: gen.let("max", 0),
    busy: gen.let("busy", false),
    fail: gen.const("FAIL", _`{}`),
    twin: gen.let("twin", null),
    valid: gen.let("valid", true),
    names: new LazyNames(gen),
  };
  const root = emitNode(gen, state, plan);
  const canonical = new Name("canonical");
  const value = new Name("value");
  const maxBytes = new Name("maxBytes");
  eagerFunction(gen, canonical, _`${value}, ${maxBytes}`, (gen) => {
    // A getter that starts another walk while this one runs: the general walk handles the inner one.
    gen.if(state.busy, () => gen.return(_`undefined`));
    gen.assign(state.busy, true);
    gen.assign(state.n, 0);
    gen.assign(state.max, maxBytes);
    gen.assign(state.valid, true);
    gen.try(
      () => {
        const copy = gen.const("copy", _`${root}(${value})`);
        // The twin's objects are fresh plain objects with their keys inserted in code-unit order (no
        // array-index key: shapeOf), so JSON.stringify of it is exactly the RFC 8785 text.
        gen.return(
          _`${copy} === ${state.fail} ? undefined : { value: ${copy}, sorted: ${state.twin}, bytes: ${state.n}, valid: ${state.valid} }`,
        );
      },
      // A getter or proxy trap threw: the general walk reports it.
      () => gen.return(_`undefined`),
      () => {
        gen.assign(state.busy, false);
        gen.assign(state.twin, null);
      },
    );
  });
  // Declared after the node functions that name them, which run only once this factory has returned.
  state.names.declare();
  gen.return(canonical);
}

interface EmitState {
  /** A lower bound of the value's canonical bytes so far, and the cap. */
  readonly n: Name;
  readonly max: Name;
  readonly busy: Name;
  /** What a node function returns for a value it does not take. */
  readonly fail: Name;
  /** Set by every node function that returns a copy: its twin with keys in code-unit order, sharing no object with the copy. */
  readonly twin: Name;
  /** Cleared by the first keyword the walk finds false or cannot decide: while set, the validator would accept the copy. */
  readonly valid: Name;
  readonly names: LazyNames;
}

/** The patterns and helpers the keyword checks name, declared once in the module, after the code that uses them. */
class LazyNames implements CheckNames {
  readonly #gen: CodeGen;
  readonly #patterns = new Map<string, Name>();
  #codePoints: Name | undefined;

  constructor(gen: CodeGen) {
    this.#gen = gen;
  }

  pattern(source: string): Name {
    let name = this.#patterns.get(source);
    if (name === undefined) this.#patterns.set(source, (name = this.#gen.name("pattern")));
    return name;
  }

  codePoints(): Name {
    return (this.#codePoints ??= this.#gen.name("codePoints"));
  }

  declare(): void {
    const gen = this.#gen;
    // The flags Ajv compiles a pattern with (unicodeRegExp: true), so both decide alike.
    for (const [source, name] of this.#patterns) gen.const(name, _`new RegExp(${source}, "u")`);
    const codePoints = this.#codePoints;
    if (codePoints === undefined) return;
    // Ajv's ucs2length: a high surrogate followed by a low one counts once.
    const text = new Name("text");
    gen.func(codePoints, text, false, () => {
      const length = gen.const("length", _`${text}.length`);
      const counted = gen.let("counted", 0);
      gen.forRange("i", 0, length, (i) => {
        gen.add(counted, 1);
        const unit = gen.const("unit", _`${text}.charCodeAt(${i})`);
        gen.if(
          _`${unit} >= 0xd800 && ${unit} <= 0xdbff && ${i} + 1 < ${length} && (${text}.charCodeAt(${i} + 1) & 0xfc00) === 0xdc00`,
          () => gen.code(_`${i}++`),
        );
      });
      gen.return(counted);
    });
  }
}

/** Clears `valid` unless `condition` holds (nil: nothing to check). */
function check(gen: CodeGen, state: EmitState, condition: Code): void {
  if (condition === nil) return;
  if (condition === UNDECIDED) gen.assign(state.valid, false);
  else gen.if(not(condition), () => gen.assign(state.valid, false));
}

/**
 * Emits the function that checks and copies a value of `shape` and returns its name. The function returns the
 * copy (keys in the value's own order, as the general walk's copy) and leaves its sorted twin in `twin` (a leaf is
 * its own twin), or returns FAIL.
 */
function emitNode(gen: CodeGen, state: EmitState, shape: CanonicalPlan): Name {
  const fn = gen.name("s");
  const v = new Name("v");
  if (shape.kind === "leaf") {
    eagerFunction(gen, fn, v, (gen) => {
      checkLeaf(gen, state, shape.types, v);
      check(gen, state, leafCondition(shape.check, v, state.names, shape.types));
      gen.assign(state.twin, v);
      gen.return(v);
    });
    return fn;
  }
  if (shape.kind === "array") {
    const item = shape.items.kind === "leaf" ? undefined : emitNode(gen, state, shape.items);
    eagerFunction(gen, fn, v, (gen) => {
      gen.if(or(not(_`Array.isArray(${v})`), _`Object.getPrototypeOf(${v}) !== Array.prototype`), () =>
        gen.return(state.fail),
      );
      const length = gen.const("len", _`${v}.length`);
      addBytes(gen, state, _`2 + ${length}`);
      check(gen, state, arrayCondition(shape.check, length));
      const copy = gen.const("c", _`new Array(${length})`);
      const twin = gen.const("tw", _`new Array(${length})`);
      gen.forRange("i", 0, length, (i) => {
        const x = gen.const("x", _`${v}[${i}]`);
        if (item === undefined) {
          const leaf = shape.items as Extract<CanonicalPlan, { kind: "leaf" }>;
          checkLeaf(gen, state, leaf.types, x);
          check(gen, state, leafCondition(leaf.check, x, state.names, leaf.types));
          gen.assign(_`${copy}[${i}]`, x);
          gen.assign(_`${twin}[${i}]`, x);
        } else {
          const y = gen.const("y", _`${item}(${x})`);
          gen.if(_`${y} === ${state.fail}`, () => gen.return(state.fail));
          gen.assign(_`${copy}[${i}]`, y);
          gen.assign(_`${twin}[${i}]`, state.twin);
        }
      });
      gen.assign(state.twin, twin);
      gen.return(copy);
    });
    return fn;
  }
  const children = new Map<string, Name>();
  for (const [key, child] of shape.properties)
    if (child.kind !== "leaf") children.set(key, emitNode(gen, state, child));
  eagerFunction(gen, fn, v, (gen) => {
    gen.if(or(_`typeof ${v} !== "object"`, _`${v} === null`), () => gen.return(state.fail));
    const proto = gen.const("p", _`Object.getPrototypeOf(${v})`);
    gen.if(and(_`${proto} !== Object.prototype`, _`${proto} !== null`), () => gen.return(state.fail));
    // The value's own keys, read in its own order (as the general walk reads them), each into its slot.
    const keys = gen.const("keys", _`Object.keys(${v})`);
    addBytes(gen, state, _`2 + ${keys}.length`);
    const copy = gen.const("c", _`{}`);
    // Each known key's twin value, by slot.
    const slots = shape.properties.map(([key]) => [key, gen.let("m")] as const);
    gen.forRange("i", 0, _`${keys}.length`, (i) => {
      if (shape.properties.length === 0) {
        gen.return(state.fail);
        return;
      }
      const k = gen.const("k", _`${keys}[${i}]`);
      shape.properties.forEach(([key, child], index) => {
        const branch = _`${k} === ${key}`;
        if (index === 0) gen.if(branch);
        else gen.elseIf(branch);
        addBytes(gen, state, _`${key.length + 3}`, false);
        const slot = slots[index]![1];
        const x = gen.const("x", _`${v}[${key}]`);
        if (child.kind === "leaf") {
          checkLeaf(gen, state, child.types, x);
          check(gen, state, leafCondition(child.check, x, state.names, child.types));
          gen.assign(_`${copy}[${key}]`, x);
          gen.assign(slot, x);
        } else {
          const y = gen.const("y", _`${children.get(key)!}(${x})`);
          gen.if(_`${y} === ${state.fail}`, () => gen.return(state.fail));
          gen.assign(_`${copy}[${key}]`, y);
          gen.assign(slot, state.twin);
        }
      });
      gen.else();
      gen.return(state.fail);
      gen.endIf();
    });
    const slotOf = new Map(slots);
    check(
      gen,
      state,
      objectCondition(shape.check, _`${keys}.length`, (key) => slotOf.get(key)),
    );
    // The twin: a fresh object with the keys inserted in code-unit order, the order of the canonical text.
    const twin = gen.const("t", _`{}`);
    for (const [key, slot] of shape.sorted.map((index) => slots[index]!))
      gen.if(_`${slot} !== undefined`, () => gen.assign(_`${twin}[${key}]`, slot));
    gen.assign(state.twin, twin);
    gen.return(copy);
  });
  return fn;
}

/** The lower bound on bytes the general walk keeps (runtime/pipeline/json-data.ts), so a huge value is given up early. */
function addBytes(gen: CodeGen, state: EmitState, bytes: Code, check = true): void {
  gen.add(state.n, bytes);
  // Only strings and collections are unbounded: the fixed-size parts are checked with the next of those.
  if (check) gen.if(_`${state.n} > ${state.max}`, () => gen.return(state.fail));
}

/** Returns FAIL from the function unless `x` is a leaf of one of `types` the general walk takes as is. */
function checkLeaf(gen: CodeGen, state: EmitState, types: ReadonlySet<LeafType>, x: Code): void {
  const allowed: Code[] = [];
  if (types.has("string"))
    allowed.push(
      _`(typeof ${x} === "string" && ${x}.isWellFormed() && (${state.n} += ${x}.length + 2) <= ${state.max})`,
    );
  // JSON.stringify of a finite number is ECMAScript's Number::toString, which is what RFC 8785 prescribes.
  if (types.has("number")) allowed.push(_`(Number.isFinite(${x}) && ++${state.n} > 0)`);
  if (types.has("boolean")) allowed.push(_`(typeof ${x} === "boolean" && (${state.n} += 5) > 0)`);
  if (types.has("null")) allowed.push(_`(${x} === null && (${state.n} += 4) > 0)`);
  gen.if(not(or(...allowed)), () => gen.return(state.fail));
}
