import { ts } from "./typescript.js";
import { moduleBinding, resolveName, type Binding } from "./bindings.js";
import { caveFunctionOf } from "./cave-imports.js";
import { moduleExports } from "./exports.js";
import type { CaveFunction, Module } from "./model.js";

/** A tool(), agent() or artifact() definition used as a value, identified by the call that makes it. */
export class DefinitionRef {
  constructor(
    readonly kind: CaveFunction,
    readonly module: Module,
    readonly call: ts.CallExpression,
  ) {}
}

export type StaticValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | DefinitionRef
  | readonly StaticValue[]
  | { readonly [key: string]: StaticValue };

/** Why a value is not known without running code, and where. */
export interface NotStatic {
  readonly module: Module;
  readonly node: ts.Node;
  readonly reason: string;
}

export type Evaluation = { readonly ok: true; readonly value: StaticValue } | ({ readonly ok: false } & NotStatic);

/** An identifier followed to the expression it stands for, or to a module namespace. */
export type Target =
  | { readonly ok: true; readonly module: Module; readonly expression: ts.Expression }
  | { readonly ok: true; readonly module: Module; readonly namespace: true }
  | ({ readonly ok: false } & NotStatic);

const GLOBAL_CONSTANTS: ReadonlyMap<string, StaticValue> = new Map<string, StaticValue>([
  ["undefined", undefined],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
]);

/** Type-only wrappers that do not change a value: parentheses, `as const`, `satisfies`, `<T>x`, `x!`. */
export function unwrap(expression: ts.Expression): ts.Expression {
  let e = expression;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isTypeAssertionExpression(e) ||
    ts.isNonNullExpression(e)
  )
    e = e.expression;
  return e;
}

export function isPlainRecord(value: StaticValue): value is { readonly [key: string]: StaticValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof DefinitionRef);
}

function describeExpression(node: ts.Expression): string {
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return "a function";
  if (ts.isCallExpression(node)) return "a function call";
  if (ts.isNewExpression(node)) return "a new expression";
  if (ts.isBinaryExpression(node)) return "an operator expression";
  if (ts.isConditionalExpression(node)) return "a conditional expression";
  if (ts.isTaggedTemplateExpression(node)) return "a tagged template";
  if (ts.isAwaitExpression(node)) return "an await expression";
  if (ts.isClassExpression(node)) return "a class";
  if (ts.isRegularExpressionLiteral(node)) return "a regular expression";
  if (ts.isBigIntLiteral(node)) return "a bigint";
  if (node.kind === ts.SyntaxKind.ThisKeyword) return "this";
  return "a computed expression";
}

function propertyKey(
  name: ts.PropertyName,
  evaluate: (e: ts.Expression) => Evaluation,
): { ok: true; key: string } | { ok: false; evaluation: Evaluation } {
  if (
    ts.isIdentifier(name) ||
    ts.isPrivateIdentifier(name) ||
    ts.isStringLiteralLike(name) ||
    ts.isNumericLiteral(name)
  )
    return { ok: true, key: name.text };
  if (ts.isComputedPropertyName(name)) {
    const key = evaluate(name.expression);
    if (key.ok && (typeof key.value === "string" || typeof key.value === "number"))
      return { ok: true, key: String(key.value) };
    return { ok: false, evaluation: key };
  }
  return { ok: false, evaluation: { ok: true, value: undefined } };
}

/**
 * Reads values from the source text without running it: literals (possibly wrapped in parentheses,
 * `as const` or `satisfies`), arrays and objects of them, and consts initialised with them, in this
 * module or across relative imports. Anything else is NotStatic, naming the offending expression.
 */
export class Evaluator {
  private readonly memo = new Map<ts.Node, Evaluation>();
  private readonly active = new Set<ts.Node>();

  /** What a module exports under a name (following re-exports and `export *`), as far as the source says. */
  exported(module: Module, name: string): Target {
    const target = this.resolveExport(module, name, module, module.sf, new Set());
    if (!target.ok || "namespace" in target) return target;
    return this.follow(target.module, target.expression);
  }

  /** Follows an identifier (through consts, imports and re-exports) to the expression it stands for. */
  follow(module: Module, expression: ts.Expression): Target {
    const e = unwrap(expression);
    if (!ts.isIdentifier(e)) return { ok: true, module, expression: e };
    const target = this.resolveBinding(resolveName(module, e, e.text), module, e, e.text, new Set());
    if (!target.ok || "namespace" in target) return target;
    return this.follow(target.module, target.expression);
  }

  evaluate(module: Module, expression: ts.Expression): Evaluation {
    const e = unwrap(expression);
    const fail = (node: ts.Node, reason: string): Evaluation => ({ ok: false, module, node, reason });
    if (ts.isStringLiteralLike(e)) return { ok: true, value: e.text };
    if (ts.isNumericLiteral(e)) return { ok: true, value: Number(e.text) };
    if (e.kind === ts.SyntaxKind.TrueKeyword) return { ok: true, value: true };
    if (e.kind === ts.SyntaxKind.FalseKeyword) return { ok: true, value: false };
    if (e.kind === ts.SyntaxKind.NullKeyword) return { ok: true, value: null };
    if (
      ts.isPrefixUnaryExpression(e) &&
      (e.operator === ts.SyntaxKind.MinusToken || e.operator === ts.SyntaxKind.PlusToken)
    ) {
      const operand = this.evaluate(module, e.operand);
      if (!operand.ok) return operand;
      if (typeof operand.value !== "number") return fail(e, "a unary operator on a value that is not a number");
      return { ok: true, value: e.operator === ts.SyntaxKind.MinusToken ? -operand.value : operand.value };
    }
    if (ts.isTemplateExpression(e)) return this.template(module, e);
    if (ts.isArrayLiteralExpression(e)) return this.array(module, e);
    if (ts.isObjectLiteralExpression(e)) return this.object(module, e);
    if (ts.isIdentifier(e)) return this.identifier(module, e);
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return this.access(module, e);
    if (ts.isCallExpression(e)) {
      const kind = caveFunctionOf(module, e);
      return kind ? { ok: true, value: new DefinitionRef(kind, module, e) } : fail(e, "a function call");
    }
    return fail(e, describeExpression(e));
  }

  private identifier(module: Module, id: ts.Identifier): Evaluation {
    const binding = resolveName(module, id, id.text);
    if (binding.kind === "global" && GLOBAL_CONSTANTS.has(id.text))
      return { ok: true, value: GLOBAL_CONSTANTS.get(id.text) };
    const target = this.resolveBinding(binding, module, id, id.text, new Set());
    if (!target.ok) return target;
    if ("namespace" in target)
      return { ok: false, module, node: id, reason: `${id.text} is a module namespace, not a value` };
    return this.entry(target.module, target.expression);
  }

  /** A const's initializer (or a default export), evaluated once however many places use it. */
  private entry(module: Module, expression: ts.Expression): Evaluation {
    const known = this.memo.get(expression);
    if (known) return known;
    if (this.active.has(expression))
      return { ok: false, module, node: expression, reason: "a const that refers to itself" };
    this.active.add(expression);
    const result = this.evaluate(module, expression);
    this.active.delete(expression);
    this.memo.set(expression, result);
    return result;
  }

  private resolveBinding(binding: Binding, module: Module, ref: ts.Node, name: string, seen: Set<string>): Target {
    const fail = (reason: string): Target => ({ ok: false, module, node: ref, reason });
    switch (binding.kind) {
      case "const":
        return { ok: true, module: binding.module, expression: binding.initializer };
      case "other":
        return fail(`${name} is ${binding.what}`);
      case "global":
        return fail(`${name} is not a const of this project`);
      case "import": {
        const target = binding.module.imported(binding.specifier);
        if (!target) {
          const relative = binding.specifier.startsWith("./") || binding.specifier.startsWith("../");
          return fail(
            relative
              ? `${name} is imported from "${binding.specifier}", which is not a readable module of this project`
              : `${name} is imported from the package "${binding.specifier}" (not a file of this project, a tsconfig paths alias or a package of its npm workspace)`,
          );
        }
        if (binding.imported === "*") return { ok: true, module: target, namespace: true };
        return this.resolveExport(target, binding.imported, module, ref, seen);
      }
    }
  }

  /** What a module exports under a name, following re-exports and `export *`. */
  private resolveExport(target: Module, exported: string, module: Module, ref: ts.Node, seen: Set<string>): Target {
    const key = `${target.file}\u0000${exported}`;
    const fail = (reason: string): Target => ({ ok: false, module, node: ref, reason });
    if (seen.has(key)) return fail(`${exported} is re-exported in a cycle`);
    seen.add(key);
    const exports = moduleExports(target);
    const entry = exports.named.get(exported);
    if (entry?.kind === "local")
      return this.resolveBinding(
        moduleBinding(target, entry.local),
        module,
        ref,
        `${exported} (in ${target.file})`,
        seen,
      );
    if (entry?.kind === "expression") return { ok: true, module: target, expression: entry.expression };
    if (entry?.kind === "reexport") {
      const next = target.imported(entry.specifier);
      if (!next)
        return fail(
          `${exported} is re-exported by ${target.file} from "${entry.specifier}", which is not a readable module of this project`,
        );
      return entry.imported === "*"
        ? { ok: true, module: next, namespace: true }
        : this.resolveExport(next, entry.imported, module, ref, seen);
    }
    if (exported !== "default") {
      for (const specifier of exports.stars) {
        const next = target.imported(specifier);
        if (next && this.exportsName(next, exported, new Set()))
          return this.resolveExport(next, exported, module, ref, seen);
      }
    }
    return fail(`${target.file} does not export ${exported}`);
  }

  private exportsName(target: Module, exported: string, seen: Set<string>): boolean {
    if (seen.has(target.file)) return false;
    seen.add(target.file);
    const exports = moduleExports(target);
    if (exports.named.has(exported)) return true;
    return exports.stars.some((specifier) => {
      const next = target.imported(specifier);
      return next !== null && this.exportsName(next, exported, seen);
    });
  }

  private access(module: Module, e: ts.PropertyAccessExpression | ts.ElementAccessExpression): Evaluation {
    let key: string;
    if (ts.isPropertyAccessExpression(e)) key = e.name.text;
    else {
      const argument = this.evaluate(module, e.argumentExpression);
      if (!argument.ok) return argument;
      if (typeof argument.value !== "string" && typeof argument.value !== "number")
        return { ok: false, module, node: e.argumentExpression, reason: "an index that is not a string or number" };
      key = String(argument.value);
    }
    const base = unwrap(e.expression);
    if (ts.isIdentifier(base)) {
      const target = this.resolveBinding(resolveName(module, base, base.text), module, base, base.text, new Set());
      if (target.ok && "namespace" in target) {
        const exported = this.resolveExport(target.module, key, module, e, new Set());
        if (!exported.ok) return exported;
        if ("namespace" in exported)
          return { ok: false, module, node: e, reason: `${key} is a module namespace, not a value` };
        return this.entry(exported.module, exported.expression);
      }
    }
    const object = this.evaluate(module, e.expression);
    if (!object.ok) return object;
    const value = object.value;
    if (value === undefined || value === null) {
      return e.questionDotToken
        ? { ok: true, value: undefined }
        : { ok: false, module, node: e, reason: `reading ${key} of ${String(value)}` };
    }
    if (Array.isArray(value) || typeof value === "string") {
      if (key === "length") return { ok: true, value: value.length };
      if (/^(0|[1-9]\d*)$/.test(key))
        return { ok: true, value: Number(key) < value.length ? (value[Number(key)] as StaticValue) : undefined };
    } else if (isPlainRecord(value)) {
      if (Object.hasOwn(value, key)) return { ok: true, value: value[key] };
      if (!(key in Object.prototype)) return { ok: true, value: undefined };
    }
    return { ok: false, module, node: e, reason: `the property ${key} of a value that is not a plain object or array` };
  }

  private template(module: Module, e: ts.TemplateExpression): Evaluation {
    let text = e.head.text;
    for (const span of e.templateSpans) {
      const part = this.evaluate(module, span.expression);
      if (!part.ok) return part;
      const v = part.value;
      if (v !== null && v !== undefined && typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
        return {
          ok: false,
          module,
          node: span.expression,
          reason: "a template substitution that is not a string, number or boolean",
        };
      }
      text += String(v) + span.literal.text;
    }
    return { ok: true, value: text };
  }

  private array(module: Module, e: ts.ArrayLiteralExpression): Evaluation {
    const out: StaticValue[] = [];
    for (const element of e.elements) {
      if (ts.isOmittedExpression(element)) return { ok: false, module, node: element, reason: "a hole in an array" };
      if (ts.isSpreadElement(element)) {
        const spread = this.evaluate(module, element.expression);
        if (!spread.ok) return spread;
        if (!Array.isArray(spread.value))
          return { ok: false, module, node: element, reason: "a spread of a value that is not an array" };
        out.push(...(spread.value as StaticValue[]));
        continue;
      }
      const item = this.evaluate(module, element);
      if (!item.ok) return item;
      out.push(item.value);
    }
    return { ok: true, value: out };
  }

  private object(module: Module, e: ts.ObjectLiteralExpression): Evaluation {
    // No prototype, so a "__proto__" key is data like any other.
    const out: Record<string, StaticValue> = Object.create(null);
    for (const property of e.properties) {
      if (ts.isSpreadAssignment(property)) {
        const spread = this.evaluate(module, property.expression);
        if (!spread.ok) return spread;
        if (spread.value === undefined || spread.value === null) continue;
        if (!isPlainRecord(spread.value))
          return { ok: false, module, node: property, reason: "a spread of a value that is not a plain object" };
        for (const key of Object.keys(spread.value)) out[key] = spread.value[key];
        continue;
      }
      if (ts.isShorthandPropertyAssignment(property)) {
        const item = this.evaluate(module, property.name);
        if (!item.ok) return item;
        out[property.name.text] = item.value;
        continue;
      }
      if (!ts.isPropertyAssignment(property))
        return { ok: false, module, node: property, reason: "a method or accessor" };
      const key = propertyKey(property.name, (x) => this.evaluate(module, x));
      if (!key.ok)
        return key.evaluation.ok
          ? { ok: false, module, node: property.name, reason: "a computed key that is not a string or number" }
          : key.evaluation;
      const item = this.evaluate(module, property.initializer);
      if (!item.ok) return item;
      out[key.key] = item.value;
    }
    return { ok: true, value: out };
  }
}

export { propertyKey };
