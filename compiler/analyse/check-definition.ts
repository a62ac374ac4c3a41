import { ARTIFACT_BRAND } from "../../src/contract/brands.js";
import { checkAgentOptions, checkArtifactOptions, checkToolOptions, NOT_STATIC } from "../../src/rules.js";
import type { Violation } from "../../src/errors.js";
import { error } from "../diagnostics.js";
import { definitionSubject, hasErrors, type Definition } from "./definition.js";
import { fieldLocation } from "./field-location.js";
import { describePlace, locate } from "./location.js";
import type { Registry } from "./registry.js";
import { DefinitionRef } from "./static-value.js";

/** What checkResult needs to accept an artifact(...) value: its brand. Its options are checked at its own call. */
const ARTIFACT_STAND_IN = Object.freeze({ [ARTIFACT_BRAND]: true });

function isToolRef(item: unknown): item is DefinitionRef {
  return item instanceof DefinitionRef && item.kind === "tool";
}

/**
 * A tool listed by another definition: kept for the rules when its facts are known; NOT_STATIC when
 * they are not (its own diagnostics say why) or when it lives outside the build (CAVE3007).
 */
function listedTool(definition: Definition, registry: Registry, item: unknown, field: string): unknown {
  if (!isToolRef(item)) return item;
  if (!item.module.inBuild && !registry.of(item).home) {
    const at = fieldLocation(definition, field);
    definition.diagnostics.push(
      error(
        "CAVE3007",
        `${definitionSubject(definition)}: ${field} refers to a tool defined in ${item.module.file} (${describePlace(item.module, item.call)}), which is not one of the build's modules, so it would not be locked`,
        "Add that module to the include globs of the configuration, or move the tool into a module the build includes.",
        locate(at.module, at.node),
      ),
    );
    return NOT_STATIC;
  }
  if (!registry.toolFacts(item)) {
    definition.incomplete = true;
    return NOT_STATIC;
  }
  return item;
}

function report(definition: Definition, violations: readonly Violation[]): void {
  const subject = definitionSubject(definition);
  for (const v of violations) {
    const at = fieldLocation(definition, v.field);
    definition.diagnostics.push(error(v.code, `${subject}: ${v.message}`, v.hint, locate(at.module, at.node)));
  }
}

/** Runs the SDK's own authoring checks on the values read statically. Idempotent. */
export function checkDefinition(definition: Definition, registry: Registry): void {
  if (definition.checked) return;
  definition.checked = true;
  if (!definition.options) return;
  const values = { ...definition.values };
  const listTools = (key: string) => {
    const list = values[key];
    if (Array.isArray(list))
      values[key] = list.map((item, i) => listedTool(definition, registry, item, `${key}[${i}]`));
  };
  if (definition.kind === "tool") {
    const result = values.result;
    if (result instanceof DefinitionRef && result.kind === "artifact") {
      const policy = registry.of(result);
      checkDefinition(policy, registry);
      if (hasErrors(policy)) definition.incomplete = true;
      values.result = ARTIFACT_STAND_IN;
    }
    listTools("nestedTools");
    report(
      definition,
      checkToolOptions(values, (item) => (isToolRef(item) ? registry.toolFacts(item) : undefined)),
    );
  } else if (definition.kind === "agent") {
    listTools("tools");
    report(
      definition,
      checkAgentOptions(values, (item) => (isToolRef(item) ? registry.toolFacts(item)?.name : undefined)),
    );
  } else {
    report(definition, checkArtifactOptions(values));
  }
}
