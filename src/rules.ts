import { EFFECTS, isEffect, type Effect } from "./contract/effects.js";
import { deniedEnvReason } from "./contract/env-policy.js";
import { checkEgress } from "./egress-rules.js";
import { parseScope, writeScopeProblem } from "./contract/fs-scopes.js";
import { ARTIFACT_BRAND, TOOL_BRAND } from "./contract/brands.js";
import {
  ENV_NAME_PATTERN,
  MAX_TIMEOUT_MS,
  RESERVED_PREFIX,
  SEMANTICS_HASH_PATTERN,
  TOOL_NAME_PATTERN,
} from "./contract/names.js";
import type { Violation } from "./errors.js";
import { checkUnknownKeys } from "./unknown-keys.js";

/**
 * The authoring rules, as pure checks over option values. tool()/artifact()/agent() run them on real
 * values at definition time; `cave build` runs the very same checks on values it read statically,
 * passing NOT_STATIC for anything it cannot know without running code (schemas, execute).
 */
export const NOT_STATIC: unique symbol = Symbol("cave.notStatic") as never;

export const TOOL_OPTION_KEYS = [
  "name",
  "description",
  "input",
  "output",
  "inputJSONSchema",
  "outputJSONSchema",
  "schemaSemanticsSHA256",
  "effect",
  "timeout",
  "result",
  "allowRepeat",
  "sandbox",
  "sandboxProfile",
  "nestedTools",
  "execute",
] as const;
export const ARTIFACT_OPTION_KEYS = ["strategy", "maxInlineTokens", "recovery"] as const;
export const AGENT_OPTION_KEYS = ["name", "description", "tools"] as const;
export const SANDBOX_PROFILE_KEYS = ["network", "env", "egress", "secrets", "fs", "addons"] as const;
export const FS_SCOPE_KEYS = ["read", "write"] as const;
export const RESULT_POLICIES = ["auto", "inline", "page", "compress", "exact_ccr"] as const;
export const ARTIFACT_STRATEGIES = ["page", "compress", "exact_ccr"] as const;
export const ARTIFACT_RECOVERIES = ["exact_ccr", "none"] as const;
export const SANDBOX_MODES = ["required", "none"] as const;

/** What the nesting rules need to know about a nested tool, whether it is a real definition or a static summary. */
export interface NestedFacts {
  readonly name: string;
  readonly effect: Effect;
  readonly nestedCount: number;
}

const TYPEBOX_KIND = Symbol.for("TypeBox.Kind");

export function isTypeBoxSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && TYPEBOX_KIND in value;
}

/** A Standard Schema v1 value (`~standard` with version 1 and a validate function). */
export function isStandardSchema(value: unknown): boolean {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const std = (value as Record<string, unknown>)["~standard"] as Record<string, unknown> | undefined;
  return typeof std === "object" && std !== null && std.version === 1 && typeof std.validate === "function";
}

/** A Standard Schema that also implements Standard JSON Schema (it can emit draft-07 itself). */
export function hasStandardJsonSchema(value: unknown): boolean {
  if (!isStandardSchema(value)) return false;
  const jsonSchema = (value as { "~standard": { jsonSchema?: { input?: unknown; output?: unknown } } })["~standard"]
    .jsonSchema;
  return typeof jsonSchema?.input === "function" && typeof jsonSchema?.output === "function";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === NOT_STATIC) return "a computed value";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  return `a value of type ${typeof value}`;
}

const known = (value: unknown) => value !== NOT_STATIC;

export function checkToolName(name: unknown, opts: { allowReserved?: boolean } = {}): Violation[] {
  if (!known(name)) return [];
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    return [
      {
        code: "CAVE1001",
        field: "name",
        message: `name ${describe(name)} does not match ^[a-zA-Z][a-zA-Z0-9_-]{0,127}$`,
        hint: "Use a letter first, then letters, digits, '_' or '-', 128 characters at most.",
      },
    ];
  }
  if (!opts.allowReserved && name.startsWith(RESERVED_PREFIX)) {
    return [
      {
        code: "CAVE1002",
        field: "name",
        message: `name "${name}" begins with the reserved prefix "${RESERVED_PREFIX}"`,
        hint: "Names beginning with cave_ belong to the framework; choose another name.",
      },
    ];
  }
  return [];
}

export function checkArtifactOptions(options: Record<string, unknown>, prefix = ""): Violation[] {
  const out = checkUnknownKeys(options, ARTIFACT_OPTION_KEYS, prefix);
  const { strategy, maxInlineTokens, recovery } = options;
  if (strategy !== undefined && known(strategy) && !(ARTIFACT_STRATEGIES as readonly unknown[]).includes(strategy)) {
    out.push({
      code: "CAVE1020",
      field: `${prefix}strategy`,
      message: `artifact strategy ${describe(strategy)} is not one of ${ARTIFACT_STRATEGIES.join(", ")}`,
      hint: "Leave it out for the default, page.",
    });
  }
  if (
    maxInlineTokens !== undefined &&
    known(maxInlineTokens) &&
    !(Number.isSafeInteger(maxInlineTokens) && (maxInlineTokens as number) > 0)
  ) {
    out.push({
      code: "CAVE1020",
      field: `${prefix}maxInlineTokens`,
      message: `maxInlineTokens ${describe(maxInlineTokens)} is not a positive integer`,
      hint: "Give a token count such as 1200 (the default).",
    });
  }
  if (recovery !== undefined && known(recovery) && !(ARTIFACT_RECOVERIES as readonly unknown[]).includes(recovery)) {
    out.push({
      code: "CAVE1020",
      field: `${prefix}recovery`,
      message: `artifact recovery ${describe(recovery)} is not one of ${ARTIFACT_RECOVERIES.join(", ")}`,
      hint: "Leave it out for the default, exact_ccr.",
    });
  }
  if (strategy === "exact_ccr" && recovery === "none") {
    out.push({
      code: "CAVE1020",
      field: `${prefix}recovery`,
      message: `strategy "exact_ccr" cannot have recovery "none"`,
      hint: "exact_ccr stores the exact result for recovery; drop recovery or choose another strategy.",
    });
  }
  return out;
}

function checkResult(result: unknown): Violation[] {
  if (result === undefined || !known(result)) return [];
  if (typeof result === "string" && (RESULT_POLICIES as readonly string[]).includes(result)) return [];
  // Re-check a branded value: the brand is a registered symbol anyone can forge.
  if (typeof result === "object" && result !== null && ARTIFACT_BRAND in result) {
    const { [ARTIFACT_BRAND]: _brand, ...options } = result as Record<PropertyKey, unknown>;
    return checkArtifactOptions(options as Record<string, unknown>, "result.");
  }
  return [
    {
      code: "CAVE1006",
      field: "result",
      message: `result ${describe(result)} is not a result policy`,
      hint: `Use one of ${RESULT_POLICIES.join(", ")}, or artifact({...}).`,
    },
  ];
}

function checkSandbox(options: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  const { sandbox, sandboxProfile } = options;
  if (sandbox !== undefined && known(sandbox) && !(SANDBOX_MODES as readonly unknown[]).includes(sandbox)) {
    out.push({
      code: "CAVE1017",
      field: "sandbox",
      message: `sandbox ${describe(sandbox)} is not "required" or "none"`,
      hint: 'Leave it out for the default, "required".',
    });
  }
  if (sandboxProfile === undefined || !known(sandboxProfile)) return out;
  if (
    sandbox === "none" &&
    isPlainObject(sandboxProfile) &&
    Array.isArray(sandboxProfile.env) &&
    sandboxProfile.env.length > 0
  ) {
    out.push({
      code: "CAVE1018",
      field: "sandboxProfile.env",
      message: 'an env allow-list has no effect with sandbox: "none": an in-process tool sees the whole environment',
      hint: 'Drop sandbox: "none" so the allow-list is enforced, or drop the env list.',
    });
  }
  if (!isPlainObject(sandboxProfile)) {
    out.push({
      code: "CAVE1018",
      field: "sandboxProfile",
      message: `sandboxProfile is ${describe(sandboxProfile)}, not an object`,
      hint: 'Pass { env: ["NAME"] } or leave it out.',
    });
    return out;
  }
  out.push(...checkUnknownKeys(sandboxProfile, SANDBOX_PROFILE_KEYS, "sandboxProfile."));
  out.push(...checkEgress(sandboxProfile, options.effect, sandbox, known));
  out.push(...checkFs(sandboxProfile.fs, options.effect, sandbox));
  const { network, env, addons } = sandboxProfile;
  if (addons !== undefined && known(addons)) {
    if (typeof addons !== "boolean") {
      out.push({
        code: "CAVE1018",
        field: "sandboxProfile.addons",
        message: `sandboxProfile.addons is ${describe(addons)}, not a boolean`,
        hint: "Pass addons: true for a tool that loads native addons (better-sqlite3, sharp), or leave it out.",
      });
    } else if (addons && sandbox === "none") {
      out.push({
        code: "CAVE1018",
        field: "sandboxProfile.addons",
        message: 'addons: true has no effect with sandbox: "none": an in-process tool can load any native addon',
        hint: 'Drop sandbox: "none" so the tool runs sandboxed with addons allowed (under the OS layer only), or drop addons.',
      });
    }
  }
  if (network === true) {
    out.push({
      code: "CAVE1008",
      field: "sandboxProfile.network",
      message:
        "sandboxProfile.network: true requests unbounded egress, which the sandbox never grants, so it fails closed",
      hint: 'Remove network: true and list the hosts the tool reaches in sandboxProfile.egress (e.g. ["api.github.com"]); credentials go in sandboxProfile.secrets.',
    });
  } else if (network !== undefined && network !== false && known(network)) {
    out.push({
      code: "CAVE1018",
      field: "sandboxProfile.network",
      message: `sandboxProfile.network is ${describe(network)}, not a boolean`,
      hint: "Leave it out; network access is off.",
    });
  }
  if (env !== undefined && known(env)) {
    if (!Array.isArray(env)) {
      out.push({
        code: "CAVE1018",
        field: "sandboxProfile.env",
        message: `sandboxProfile.env is ${describe(env)}, not an array of names`,
        hint: 'Pass an array such as ["LOG_LEVEL"].',
      });
    } else {
      const seen = new Set<string>();
      env.forEach((name, i) => {
        const field = `sandboxProfile.env[${i}]`;
        if (!known(name)) return;
        if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          out.push({
            code: "CAVE1018",
            field,
            message: `environment name ${describe(name)} is not a valid name`,
            hint: "Names match ^[A-Za-z_][A-Za-z0-9_]*$.",
          });
          return;
        }
        if (seen.has(name))
          out.push({
            code: "CAVE1018",
            field,
            message: `environment name "${name}" is listed twice`,
            hint: "List each name once.",
          });
        seen.add(name);
        const reason = deniedEnvReason(name);
        if (reason) {
          out.push({
            code: "CAVE1009",
            field,
            message: `environment name "${name}" looks like ${/^[aeiou]/i.test(reason) ? "an" : "a"} ${reason} name and is denied`,
            hint: /secret|credential/.test(reason)
              ? `Tools never receive such variables, even when listed. For a credential an API needs, declare it in sandboxProfile.secrets (e.g. { ${name}: { hosts: ["api.example.com"] } }): the egress broker adds it to requests to those hosts and the tool never sees it; anything else, pass as an argument.`
              : "Tools never receive such variables, even when listed; pass what the tool needs as an argument.",
          });
        }
      });
    }
  }
  return out;
}

/** sandboxProfile.fs: what the tool may read and write (src/contract/fs-scopes.ts). */
function checkFs(fs: unknown, effect: unknown, sandbox: unknown): Violation[] {
  if (fs === undefined || !known(fs)) return [];
  const hint =
    'Write it as { read: ["docs"], write: ["data/orders"] }: paths relative to the project root, or under a named runtime setting such as "$DATA_DIR/orders".';
  if (!isPlainObject(fs))
    return [
      {
        code: "CAVE1160",
        field: "sandboxProfile.fs",
        message: `sandboxProfile.fs is ${describe(fs)}, not an object`,
        hint,
      },
    ];
  const out = checkUnknownKeys(fs, FS_SCOPE_KEYS, "sandboxProfile.fs.");
  let scopes = 0;
  for (const key of FS_SCOPE_KEYS) {
    const list = fs[key];
    if (list === undefined || !known(list)) continue;
    if (!Array.isArray(list)) {
      out.push({
        code: "CAVE1160",
        field: `sandboxProfile.fs.${key}`,
        message: `sandboxProfile.fs.${key} is ${describe(list)}, not an array of paths`,
        hint,
      });
      continue;
    }
    const seen = new Set<string>();
    list.forEach((written, i) => {
      const field = `sandboxProfile.fs.${key}[${i}]`;
      if (!known(written)) return;
      scopes += 1;
      const parsed = parseScope(written);
      if (!parsed.ok) {
        out.push({ code: "CAVE1160", field, message: `fs scope ${describe(written)} ${parsed.problem}`, hint });
        return;
      }
      const { scope } = parsed;
      if (seen.has(scope.text))
        out.push({
          code: "CAVE1160",
          field,
          message: `fs scope ${JSON.stringify(scope.text)} is listed twice in ${key}`,
          hint: "List each scope once.",
        });
      seen.add(scope.text);
      if (scope.base.kind === "setting") {
        const reason = deniedEnvReason(scope.base.name);
        // The tool finds a named setting's directory in its environment under that name, so the env policy applies.
        if (reason)
          out.push({
            code: "CAVE1160",
            field,
            message: `fs scope ${JSON.stringify(scope.text)} names the runtime setting ${scope.base.name}, which looks like ${/^[aeiou]/.test(reason) ? "an" : "a"} ${reason} name`,
            hint: "Name the setting for the directory it holds, such as ORDERS_DIR.",
          });
      }
      const problem = key === "write" ? writeScopeProblem(scope) : null;
      if (problem !== null)
        out.push({
          code: "CAVE1161",
          field,
          message: `write scope ${JSON.stringify(scope.text)} ${problem}`,
          hint: "Name the directory the tool writes in (it is created at deploy and mounted read-write); list files it only reads under read.",
        });
    });
    if (key === "write" && list.length > 0 && effect === "read") {
      out.push({
        code: "CAVE1162",
        field: "sandboxProfile.fs.write",
        message: "a read tool declares write scopes, but read means no durable side effect",
        hint: "Declare the effect the tool has (write, idempotent or external), or drop the write scopes.",
      });
    }
  }
  if (scopes > 0 && sandbox === "none") {
    out.push({
      code: "CAVE1163",
      field: "sandboxProfile.fs",
      message:
        'filesystem scopes have no effect with sandbox: "none": an in-process tool can touch every file the host can',
      hint: 'Drop sandbox: "none" so the scopes are enforced, or drop the scopes.',
    });
  }
  return out;
}

function checkNested(
  self: unknown,
  effect: unknown,
  nested: unknown,
  facts: (item: unknown) => NestedFacts | undefined,
): Violation[] {
  if (nested === undefined || !known(nested)) return [];
  if (!Array.isArray(nested)) {
    return [
      {
        code: "CAVE1019",
        field: "nestedTools",
        message: `nestedTools is ${describe(nested)}, not an array of tools`,
        hint: "Pass an array of tool() definitions.",
      },
    ];
  }
  const out: Violation[] = [];
  const seen = new Set<string>();
  nested.forEach((item, i) => {
    const field = `nestedTools[${i}]`;
    if (!known(item)) return;
    const child = facts(item);
    if (!child) {
      out.push({
        code: "CAVE1019",
        field,
        message: `${field} is ${describe(item)}, not a tool() definition`,
        hint: "List tool() definitions, not names or options.",
      });
      return;
    }
    if (child.name === self)
      out.push({
        code: "CAVE1019",
        field,
        message: `tool lists itself as a nested tool`,
        hint: "Remove it from nestedTools.",
      });
    if (seen.has(child.name))
      out.push({
        code: "CAVE1019",
        field,
        message: `nested tool "${child.name}" is listed twice`,
        hint: "List each nested tool once.",
      });
    seen.add(child.name);
    if (child.nestedCount > 0) {
      out.push({
        code: "CAVE1010",
        field,
        message: `nested tool "${child.name}" has nested tools of its own`,
        hint: "Nesting is one level deep: list its children on this composite directly.",
      });
    }
    if (effect === "read" && child.effect !== "read") {
      out.push({
        code: "CAVE1011",
        field,
        message: `this read composite contains "${child.name}", whose effect is ${child.effect}`,
        hint: `Declare the composite's effect as "${child.effect}" (or stronger), or remove the child.`,
      });
    }
  });
  return out;
}

/** " (valibot)": the vendor a Standard Schema names, for messages. */
function vendorOf(value: unknown): string {
  const vendor = (value as { "~standard": { vendor?: unknown } })["~standard"].vendor;
  return typeof vendor === "string" && vendor !== "" ? ` (${vendor})` : "";
}

/** What to do about a validator that cannot describe its shape: for valibot, its own converter package. */
function validationOnlyHint(value: unknown, side: "input" | "output"): string {
  const jsonKey = `${side}JSONSchema`;
  if (vendorOf(value) === " (valibot)") {
    return `valibot schemas describe their shape through the package @valibot/to-json-schema: install it and write \`${side}: toStandardJsonSchema(schema)\` (import { toStandardJsonSchema } from "@valibot/to-json-schema"), or pass \`${jsonKey}: toJsonSchema(schema)\`.`;
  }
  return `Pass ${jsonKey} (draft-07) so providers can be told the shape.`;
}

function checkSchemas(options: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  let opaque = false;
  for (const side of ["input", "output"] as const) {
    const value = options[side];
    const jsonKey = `${side}JSONSchema` as const;
    const json = options[jsonKey];
    if (!known(value) || !known(json)) {
      opaque ||= isStandardSchema(value);
      continue;
    }
    if (json !== undefined && !isPlainObject(json)) {
      out.push({
        code: "CAVE1012",
        field: jsonKey,
        message: `${jsonKey} is ${describe(json)}, not a JSON Schema object`,
        hint: "Pass the draft-07 JSON Schema of the validator as a plain object.",
      });
    }
    if (value === undefined) {
      if (json !== undefined)
        out.push({
          code: "CAVE1012",
          field: jsonKey,
          message: `${jsonKey} is given without ${side}`,
          hint: `Pass the validator as ${side}, or drop ${jsonKey}.`,
        });
      continue;
    }
    if (isTypeBoxSchema(value)) {
      if (json !== undefined)
        out.push({
          code: "CAVE1012",
          field: jsonKey,
          message: `${jsonKey} is given for a schema.* ${side}, which is JSON Schema already`,
          hint: `Drop ${jsonKey}.`,
        });
      continue;
    }
    if (isStandardSchema(value)) {
      opaque = true;
      // With a library that emits its own JSON Schema, ${side}JSONSchema is allowed too: it is how a side the library
      // cannot describe (a transform) is locked. Whether the library can is only known by asking it, which the build
      // does (and refuses two descriptions of one side); definition time does not pay for that conversion.
      if (!hasStandardJsonSchema(value) && json === undefined) {
        out.push({
          code: "CAVE1012",
          field: jsonKey,
          message: `${side} is a validation-only Standard Schema${vendorOf(value)} with no JSON Schema`,
          hint: validationOnlyHint(value, side),
        });
      }
      continue;
    }
    out.push({
      code: "CAVE1012",
      field: side,
      message: `${side} is ${describe(value)}, not a schema`,
      hint:
        "Use schema.* (for example schema.object({...})), a Standard Schema v1 validator (zod, valibot, arktype), or a validation-only validator with " +
        jsonKey +
        ".",
    });
  }
  const hash = options.schemaSemanticsSHA256;
  if (hash !== undefined && known(hash)) {
    if (typeof hash !== "string" || !SEMANTICS_HASH_PATTERN.test(hash)) {
      out.push({
        code: "CAVE1013",
        field: "schemaSemanticsSHA256",
        message: `schemaSemanticsSHA256 ${describe(hash)} is not 64 lowercase hex characters`,
        hint: "Pass the lowercase hex SHA-256 of the validator code, dependencies and captured state.",
      });
    } else if (!opaque && known(options.input) && known(options.output)) {
      out.push({
        code: "CAVE1013",
        field: "schemaSemanticsSHA256",
        message: "schemaSemanticsSHA256 is given but neither input nor output is a Standard Schema validator",
        hint: "It identifies opaque validators only; drop it.",
      });
    }
  }
  return out;
}

/** Every authoring rule of tool(); an empty array means the options are valid. */
export function checkToolOptions(
  options: Record<string, unknown>,
  nestedFacts: (item: unknown) => NestedFacts | undefined,
  opts: { allowReserved?: boolean } = {},
): Violation[] {
  const out: Violation[] = [...checkUnknownKeys(options, TOOL_OPTION_KEYS)];
  out.push(...checkToolName(options.name, opts));
  const { description, effect, timeout, allowRepeat, execute } = options;
  if (known(description) && (typeof description !== "string" || description.trim() === "")) {
    out.push({
      code: "CAVE1014",
      field: "description",
      message: `description is ${describe(description)}`,
      hint: "Write one or two sentences telling the model what the tool does and when to use it.",
    });
  }
  if (effect === undefined) {
    out.push({
      code: "CAVE1003",
      field: "effect",
      message: "effect is missing",
      hint: `Say what the tool does: one of ${EFFECTS.join(", ")}. There is no default.`,
    });
  } else if (known(effect) && !isEffect(effect)) {
    out.push({
      code: "CAVE1004",
      field: "effect",
      message: `effect ${describe(effect)} is not one of ${EFFECTS.join(", ")}`,
      hint: "read has no durable side effect; write mutates; idempotent is safe to retry; external leaves the process.",
    });
  }
  if (
    timeout !== undefined &&
    known(timeout) &&
    !(Number.isSafeInteger(timeout) && (timeout as number) > 0 && (timeout as number) <= MAX_TIMEOUT_MS)
  ) {
    out.push({
      code: "CAVE1005",
      field: "timeout",
      message: `timeout ${describe(timeout)} is not a positive integer of milliseconds up to ${MAX_TIMEOUT_MS}`,
      hint: "Leave it out for the default, 30000 ms.",
    });
  }
  out.push(...checkResult(options.result));
  if (allowRepeat !== undefined && known(allowRepeat) && typeof allowRepeat !== "boolean") {
    out.push({
      code: "CAVE1016",
      field: "allowRepeat",
      message: `allowRepeat is ${describe(allowRepeat)}, not a boolean`,
      hint: "Use true for polling tools meant to be called again with the same arguments.",
    });
  }
  out.push(...checkSandbox(options));
  out.push(...checkNested(options.name, effect, options.nestedTools, nestedFacts));
  out.push(...checkSchemas(options));
  if (known(execute) && typeof execute !== "function") {
    out.push({
      code: "CAVE1015",
      field: "execute",
      message: `execute is ${describe(execute)}`,
      hint: "Implement the tool as execute(input, context) { ... }.",
    });
  }
  return out;
}

/** Nested facts of a real tool() definition. */
export function definitionFacts(item: unknown): NestedFacts | undefined {
  if (typeof item !== "object" || item === null || !(TOOL_BRAND in item)) return undefined;
  const def = item as unknown as { name: string; effect: Effect; nestedTools: readonly unknown[] };
  return { name: def.name, effect: def.effect, nestedCount: def.nestedTools.length };
}

export function checkAgentOptions(
  options: Record<string, unknown>,
  toolName: (item: unknown) => string | undefined,
): Violation[] {
  const out = checkUnknownKeys(options, AGENT_OPTION_KEYS);
  const { name, description, tools } = options;
  if (known(name) && (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name))) {
    out.push({
      code: "CAVE1021",
      field: "name",
      message: `agent name ${describe(name)} does not match ^[a-zA-Z][a-zA-Z0-9_-]{0,127}$`,
      hint: "Use a letter first, then letters, digits, '_' or '-'.",
    });
  }
  if (
    description !== undefined &&
    known(description) &&
    (typeof description !== "string" || description.trim() === "")
  ) {
    out.push({
      code: "CAVE1014",
      field: "description",
      message: `description is ${describe(description)}`,
      hint: "Leave it out, or describe what the agent is for.",
    });
  }
  if (!known(tools)) return out;
  if (!Array.isArray(tools) || tools.length === 0) {
    out.push({
      code: "CAVE1023",
      field: "tools",
      message: `tools is ${Array.isArray(tools) ? "empty" : describe(tools)}`,
      hint: "Pass a non-empty array of tool() definitions.",
    });
    return out;
  }
  const firstIndex = new Map<string, number>();
  tools.forEach((item, i) => {
    if (!known(item)) return;
    const toolNameValue = toolName(item);
    if (toolNameValue === undefined) {
      out.push({
        code: "CAVE1023",
        field: `tools[${i}]`,
        message: `tools[${i}] is ${describe(item)}, not a tool() definition`,
        hint: "List tool() definitions.",
      });
      return;
    }
    const earlier = firstIndex.get(toolNameValue);
    if (earlier !== undefined) {
      out.push({
        code: "CAVE1022",
        field: `tools[${i}]`,
        message: `tools[${earlier}] and tools[${i}] are both named "${toolNameValue}"`,
        hint: "Rename one of them: the model could not tell them apart.",
      });
    } else firstIndex.set(toolNameValue, i);
  });
  return out;
}

export { isPlainObject, ENV_NAME_PATTERN };
