import type { ts } from "./typescript.js";
import { isEffect } from "../../src/contract/effects.js";
import type { NestedFacts } from "../../src/rules.js";
import type { Definition } from "./definition.js";
import type { CaveFunction, Module } from "./model.js";
import { readDefinition } from "./read-definition.js";
import type { DefinitionRef, Evaluator } from "./static-value.js";

/** Every definition read so far, each read once, whichever of its uses reaches it first. */
export class Registry {
  private readonly byCall = new Map<ts.CallExpression, Definition>();
  /** In the order they were first read; checking one may read more (an artifact const in another module). */
  private readonly ordered: Definition[] = [];

  constructor(readonly evaluator: Evaluator) {}

  definition(module: Module, call: ts.CallExpression, kind: CaveFunction): Definition {
    let found = this.byCall.get(call);
    if (!found) {
      found = readDefinition(this.evaluator, module, call, kind);
      this.byCall.set(call, found);
      this.ordered.push(found);
    }
    return found;
  }

  of(ref: DefinitionRef): Definition {
    return this.definition(ref.module, ref.call, ref.kind);
  }

  all(): readonly Definition[] {
    return this.ordered;
  }

  /** What the nesting rules need about a tool, or undefined when its name, effect or nestedTools are not known. */
  toolFacts(ref: DefinitionRef): NestedFacts | undefined {
    const { values, options } = this.of(ref);
    if (!options || typeof values.name !== "string" || !isEffect(values.effect)) return undefined;
    const nested = values.nestedTools;
    if (nested !== undefined && !Array.isArray(nested)) return undefined;
    return { name: values.name, effect: values.effect, nestedCount: nested?.length ?? 0 };
  }
}
