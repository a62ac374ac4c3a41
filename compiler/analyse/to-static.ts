import { withSecretDefaults } from "../../src/contract/egress.js";
import { scopeFields } from "../plan/scope-fields.js";
import type { SandboxProfile } from "../../src/types.js";
import { ARTIFACT_DEFAULTS } from "../../src/artifact.js";
import { lockedFs } from "../../src/contract/fs-scopes.js";
import type { Effect } from "../../src/contract/effects.js";
import type { ArtifactOptions, RequestedResult, ResultPolicyName } from "../../src/contract/lock.js";
import { TOOL_DEFAULTS } from "../../src/contract/options.js";
import type { StaticAgent, StaticTool } from "../types.js";
import type { Definition, Home } from "./definition.js";
import { locate } from "./location.js";
import type { Registry } from "./registry.js";
import { DefinitionRef } from "./static-value.js";

function sorted(values: readonly string[]): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function toolNames(list: unknown, registry: Registry): string[] {
  return sorted(((list as readonly DefinitionRef[] | undefined) ?? []).map((ref) => registry.toolFacts(ref)!.name));
}

function requestedResult(result: unknown, registry: Registry): RequestedResult {
  if (result instanceof DefinitionRef) {
    const given = registry.of(result).values as Partial<ArtifactOptions>;
    // As artifact() does: its defaults under what was given (an explicit undefined keeps the default).
    const artifact: ArtifactOptions = {
      strategy: given.strategy ?? ARTIFACT_DEFAULTS.strategy,
      maxInlineTokens: given.maxInlineTokens ?? ARTIFACT_DEFAULTS.maxInlineTokens,
      recovery: given.recovery ?? ARTIFACT_DEFAULTS.recovery,
    };
    return { policy: "artifact", artifact };
  }
  return { policy: (result as ResultPolicyName | undefined) ?? TOOL_DEFAULTS.result };
}

/** A checked, error-free tool definition with every default filled in as tool() fills it. */
export function toStaticTool(definition: Definition, home: Home, registry: Registry): StaticTool {
  const v = definition.values;
  const { file, line, column } = locate(definition.module, definition.call);
  const profile = v.sandboxProfile as SandboxProfile | undefined;
  const fs = lockedFs((profile as { fs?: unknown } | undefined)?.fs);
  return {
    name: v.name as string,
    module: home.module.file,
    exportName: home.exportName,
    file,
    line,
    column,
    description: v.description as string,
    effect: v.effect as Effect,
    timeoutMs: (v.timeout as number | undefined) ?? TOOL_DEFAULTS.timeout,
    allowRepeat: (v.allowRepeat as boolean | undefined) ?? TOOL_DEFAULTS.allowRepeat,
    sandbox: {
      mode: (v.sandbox as "required" | "none" | undefined) ?? TOOL_DEFAULTS.sandbox,
      network: false,
      env: sorted(profile?.env ?? []),
      ...scopeFields(profile?.egress ?? [], withSecretDefaults(profile?.secrets ?? {})),
      fs,
      addons: profile?.addons ?? TOOL_DEFAULTS.addons,
    },
    nestedTools: toolNames(v.nestedTools, registry),
    result: requestedResult(v.result, registry),
    declaresInput: v.input !== undefined,
    declaresOutput: v.output !== undefined,
    schemaSemanticsSHA256: (v.schemaSemanticsSHA256 as string | undefined) ?? null,
  };
}

export function toStaticAgent(definition: Definition, home: Home, registry: Registry): StaticAgent {
  const v = definition.values;
  const { file, line, column } = locate(definition.module, definition.call);
  return {
    name: v.name as string,
    module: home.module.file,
    exportName: home.exportName,
    file,
    line,
    column,
    description: (v.description as string | undefined) ?? null,
    tools: toolNames(v.tools, registry),
  };
}
