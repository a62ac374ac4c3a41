import type { ts } from "./typescript.js";
import { AGENT_OPTION_KEYS, ARTIFACT_OPTION_KEYS, NOT_STATIC, TOOL_OPTION_KEYS } from "../../src/rules.js";
import { error, type Diagnostic } from "../diagnostics.js";
import { definitionSubject, subjectOf, type Definition } from "./definition.js";
import { computedFieldHint } from "./hints.js";
import { describePlace, locate } from "./location.js";
import type { CaveFunction, Module } from "./model.js";
import { callHint, readOptions, type OptionProperty } from "./options.js";
import { placementOf } from "./placement.js";
import type { Evaluator, NotStatic } from "./static-value.js";

/** Fields the lock records: they must be static. Every other known tool key (schemas, execute) is evaluated later. */
const LOCKED_FIELDS: Readonly<Record<CaveFunction, readonly string[]>> = {
  tool: [
    "name",
    "description",
    "effect",
    "timeout",
    "allowRepeat",
    "sandbox",
    "sandboxProfile",
    "nestedTools",
    "result",
    "schemaSemanticsSHA256",
  ],
  agent: AGENT_OPTION_KEYS,
  artifact: ARTIFACT_OPTION_KEYS,
};
const KNOWN_KEYS: Readonly<Record<CaveFunction, readonly string[]>> = {
  tool: TOOL_OPTION_KEYS,
  agent: AGENT_OPTION_KEYS,
  artifact: ARTIFACT_OPTION_KEYS,
};
const JSON_SCHEMA_KEYS = ["inputJSONSchema", "outputJSONSchema"];
const READS_OPTIONS_HINT =
  "Write the options as an object literal with every key spelled out (no spread, no computed key), inline or in a const.";

interface Computed {
  readonly property: OptionProperty;
  readonly why: NotStatic;
}

function readProperty(
  evaluator: Evaluator,
  module: Module,
  property: OptionProperty,
  locked: boolean,
): { value: unknown; computed?: NotStatic } {
  if (property.value === undefined) {
    return locked
      ? { value: NOT_STATIC, computed: { module, node: property.node, reason: `a ${property.shape}` } }
      : { value: NOT_STATIC };
  }
  const evaluated = evaluator.evaluate(module, property.value);
  if (evaluated.ok) return { value: evaluated.value };
  if (locked) return { value: NOT_STATIC, computed: evaluated };
  // Only the presence of a JSON Schema matters here (given without input?); evaluate reads its value.
  return { value: JSON_SCHEMA_KEYS.includes(property.key) ? {} : NOT_STATIC };
}

function computedDiagnostic(definition: Definition, { property, why }: Computed, optionsModule: Module): Diagnostic {
  const field = property.key;
  const elsewhere =
    why.module !== optionsModule ||
    why.node.getStart(why.module.sf) < property.node.getStart(optionsModule.sf) ||
    why.node.getEnd() > property.node.getEnd();
  const through = elsewhere ? ` (read by ${field} at ${describePlace(optionsModule, property.node)})` : "";
  return error(
    "CAVE3005",
    `${definitionSubject(definition)}: ${field} is computed: ${why.reason}${through}`,
    computedFieldHint(definition.kind, field),
    locate(why.module, why.node),
  );
}

/** A const name to suggest for a definition that has none: its name in camelCase when that is an identifier. */
function constNameFor(kind: CaveFunction, name: unknown): string {
  const camel = typeof name === "string" ? name.replace(/[-_]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase()) : "";
  return /^[A-Za-z_$][\w$]*$/.test(camel) ? camel : kind === "tool" ? "myTool" : "myAgent";
}

/** Reads one call: where it sits, its options and the static value of each field. Checks come later, once every definition is read. */
export function readDefinition(
  evaluator: Evaluator,
  module: Module,
  call: ts.CallExpression,
  kind: CaveFunction,
): Definition {
  const placement = kind === "artifact" ? null : placementOf(module, call);
  const read = readOptions(evaluator, module, call, kind);
  const values: Record<string, unknown> = {};
  const diagnostics: Diagnostic[] = [];
  const definition: Definition = {
    kind,
    module,
    call,
    placement,
    options: read.ok ? read.options : null,
    values,
    diagnostics,
    incomplete: false,
    checked: false,
    home: null,
  };
  const computed: Computed[] = [];
  if (read.ok) {
    for (const property of read.options.properties.values()) {
      const known = KNOWN_KEYS[kind].includes(property.key);
      const locked = LOCKED_FIELDS[kind].includes(property.key);
      const { value, computed: why } = known
        ? readProperty(evaluator, read.options.module, property, locked)
        : { value: NOT_STATIC };
      values[property.key] = value;
      if (why) computed.push({ property, why });
    }
    for (const item of computed) diagnostics.push(computedDiagnostic(definition, item, read.options.module));
  } else {
    const subject = subjectOf(kind, undefined, placement);
    diagnostics.push(
      error(
        read.code,
        `${subject}: ${read.message}`,
        read.code === "CAVE1024" ? callHint(kind) : READS_OPTIONS_HINT,
        locate(read.module, read.node),
      ),
    );
  }
  // A const that is only not exported may still be locked (homes.ts): that finding waits until every use is known.
  if (placement && !placement.ok && placement.code === "CAVE3003") {
    const name = placement.local ?? constNameFor(kind, values.name);
    const hint = `Define it as \`export const ${name} = ${kind}({...})\` at the top level of the module (and refer to that const where you need it): the runtime imports ${kind}s by export name.`;
    diagnostics.push(
      error(
        placement.code,
        `${definitionSubject(definition)} is defined ${placement.where}`,
        hint,
        locate(module, call),
      ),
    );
  }
  return definition;
}
