import { TOOL_BRAND } from "./contract/brands.js";
import { lockedFs } from "./contract/fs-scopes.js";
import { TOOL_DEFAULTS } from "./contract/options.js";
import { CaveError } from "./errors.js";
import { checkToolOptions, definitionFacts, isPlainObject } from "./rules.js";
import type { AnyToolDefinition, ToolDefinition, ToolOptions, ToolSchema } from "./types.js";
import { withSecretDefaults, type SecretScope } from "./contract/egress.js";

/** Defines a tool: checks every authoring rule now and returns a frozen definition with defaults filled in. */
export function tool<I extends ToolSchema | undefined = undefined, O extends ToolSchema | undefined = undefined>(
  options: ToolOptions<I, O>,
): ToolDefinition<I, O> {
  if (!isPlainObject(options)) {
    throw new CaveError("tool()", [
      {
        code: "CAVE1024",
        field: "options",
        message: "tool() takes one options object",
        hint: "Call tool({ name, description, effect, input, execute }).",
      },
    ]);
  }
  const raw = options as unknown as Record<string, unknown>;
  const subject = typeof raw.name === "string" ? `tool ${JSON.stringify(raw.name)}` : "tool()";
  const violations = checkToolOptions(raw, definitionFacts);
  if (violations.length > 0) throw new CaveError(subject, violations);

  const definition: ToolDefinition<I, O> = {
    [TOOL_BRAND]: true,
    name: options.name,
    description: options.description,
    input: options.input as I,
    output: options.output as O,
    inputJSONSchema: options.inputJSONSchema,
    outputJSONSchema: options.outputJSONSchema,
    schemaSemanticsSHA256: options.schemaSemanticsSHA256,
    effect: options.effect,
    timeout: options.timeout ?? TOOL_DEFAULTS.timeout,
    result: options.result ?? TOOL_DEFAULTS.result,
    allowRepeat: options.allowRepeat ?? TOOL_DEFAULTS.allowRepeat,
    sandbox: options.sandbox ?? TOOL_DEFAULTS.sandbox,
    sandboxProfile: Object.freeze({
      network: false as const,
      env: Object.freeze([...(options.sandboxProfile?.env ?? [])]),
      egress: Object.freeze([...(options.sandboxProfile?.egress ?? [])]),
      secrets: deepFreeze(withSecretDefaults(options.sandboxProfile?.secrets ?? {})),
      fs: frozenFs(options.sandboxProfile?.fs),
      addons: options.sandboxProfile?.addons ?? TOOL_DEFAULTS.addons,
    }),
    nestedTools: Object.freeze([...(options.nestedTools ?? [])]) as readonly AnyToolDefinition[],
    execute: options.execute,
  };
  return Object.freeze(definition);
}

/** The scopes as the lock records them (normalised, sorted, unique), so a definition reads the same as its locked entry. */
function frozenFs(fs: unknown): { readonly read: readonly string[]; readonly write: readonly string[] } {
  const locked = lockedFs(fs);
  return Object.freeze({
    read: Object.freeze([...(locked?.read ?? [])]),
    write: Object.freeze([...(locked?.write ?? [])]),
  });
}

/** True for a value made by tool() (in this or any bundled copy of the SDK). */
export function isTool(value: unknown): value is AnyToolDefinition {
  return definitionFacts(value) !== undefined;
}

function deepFreeze(secrets: Record<string, SecretScope>): Readonly<Record<string, SecretScope>> {
  for (const scope of Object.values(secrets)) Object.freeze(Object.freeze(scope).hosts);
  return Object.freeze(secrets);
}
