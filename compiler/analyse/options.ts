import { ts } from "./typescript.js";
import type { CaveFunction, Module } from "./model.js";
import { propertyKey, type Evaluator, type NotStatic } from "./static-value.js";

/** One key of an options object literal, as written. */
export interface OptionProperty {
  readonly key: string;
  /** The whole property (`key: value`, a shorthand or a method), where findings about the key are placed. */
  readonly node: ts.ObjectLiteralElementLike;
  /** The value expression; undefined for methods and accessors. */
  readonly value: ts.Expression | undefined;
  readonly shape: "value" | "method" | "getter" | "setter";
}

export interface Options {
  /** The module holding the object literal (a const of options may live in another module). */
  readonly module: Module;
  readonly properties: ReadonlyMap<string, OptionProperty>;
}

export type OptionsRead =
  | { readonly ok: true; readonly options: Options }
  | {
      readonly ok: false;
      readonly code: "CAVE3006" | "CAVE1024";
      readonly module: Module;
      readonly node: ts.Node;
      readonly message: string;
    };

const CALL_HINT: Readonly<Record<CaveFunction, string>> = {
  tool: "Call tool({ name, description, effect, input, execute }).",
  agent: "Call agent({ name, tools: [...] }).",
  artifact: "Call artifact({ maxInlineTokens: 800 }) or artifact().",
};

export function callHint(kind: CaveFunction): string {
  return CALL_HINT[kind];
}

function notStatic(kind: CaveFunction, why: NotStatic, what: string): OptionsRead {
  return {
    ok: false,
    code: "CAVE3006",
    module: why.module,
    node: why.node,
    message: `the options of ${kind}() ${what} (${why.reason})`,
  };
}

/**
 * The options object of a tool()/agent()/artifact() call: an object literal, inline or in a const
 * (possibly imported), whose keys are all written out. A spread or a computed key would hide keys.
 */
export function readOptions(
  evaluator: Evaluator,
  module: Module,
  call: ts.CallExpression,
  kind: CaveFunction,
): OptionsRead {
  const argument = call.arguments[0];
  const empty: OptionsRead = { ok: true, options: { module, properties: new Map() } };
  if (argument === undefined) {
    return kind === "artifact"
      ? empty
      : { ok: false, code: "CAVE1024", module, node: call, message: `${kind}() is called without an options object` };
  }
  if (ts.isSpreadElement(argument))
    return notStatic(kind, { module, node: argument, reason: "a spread argument" }, "cannot be read statically");
  const target = evaluator.follow(module, argument);
  if (!target.ok) return notStatic(kind, target, "cannot be read statically");
  if ("namespace" in target)
    return {
      ok: false,
      code: "CAVE1024",
      module,
      node: argument,
      message: `the options of ${kind}() are a module namespace, not an object`,
    };
  if (!ts.isObjectLiteralExpression(target.expression)) {
    const value = evaluator.evaluate(target.module, target.expression);
    if (!value.ok) return notStatic(kind, value, "are computed");
    // artifact(undefined) takes the defaults, as artifact() does.
    if (value.value === undefined && kind === "artifact") return empty;
    return {
      ok: false,
      code: "CAVE1024",
      module,
      node: argument,
      message: `the options of ${kind}() are not an object`,
    };
  }
  const properties = new Map<string, OptionProperty>();
  const options = target.module;
  for (const property of target.expression.properties) {
    if (ts.isSpreadAssignment(property))
      return notStatic(
        kind,
        { module: options, node: property, reason: "a spread hides which keys are set" },
        "cannot be read statically",
      );
    if (ts.isShorthandPropertyAssignment(property)) {
      properties.set(property.name.text, {
        key: property.name.text,
        node: property,
        value: property.name,
        shape: "value",
      });
      continue;
    }
    const key = propertyKey(property.name, (e) => evaluator.evaluate(options, e));
    if (!key.ok)
      return notStatic(
        kind,
        key.evaluation.ok
          ? { module: options, node: property.name, reason: "a computed key that is not a string" }
          : key.evaluation,
        "cannot be read statically",
      );
    if (ts.isPropertyAssignment(property))
      properties.set(key.key, { key: key.key, node: property, value: property.initializer, shape: "value" });
    else if (ts.isMethodDeclaration(property))
      properties.set(key.key, { key: key.key, node: property, value: undefined, shape: "method" });
    else
      properties.set(key.key, {
        key: key.key,
        node: property,
        value: undefined,
        shape: ts.isGetAccessor(property) ? "getter" : "setter",
      });
  }
  return { ok: true, options: { module: options, properties } };
}
