import type { SecretScope } from "../../src/contract/egress.js";
import { scopeFields } from "../plan/scope-fields.js";
import { isEffect } from "../../src/contract/effects.js";
import type { RequestedResult } from "../../src/contract/lock.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { lockedFs, type LockedFs } from "../../src/contract/fs-scopes.js";
import { ARTIFACT_RECOVERIES, ARTIFACT_STRATEGIES, RESULT_POLICIES, SANDBOX_MODES } from "../../src/rules.js";
import type { EvaluatedAgent, EvaluatedSchema, EvaluatedTool } from "../types.js";
import type { ChildReply, ExportReport, RawAgent, RawSchema, RawTool } from "./protocol.js";

/** A field of an evaluated definition that does not have the type tool()/agent() guarantee (a fake brand, a patched SDK). */
export class Undecodable extends Error {}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value))
    throw new Undecodable(`${field} is ${JSON.stringify(value) ?? String(value)}`);
  return value as T;
}

function string(value: unknown, field: string): string {
  if (typeof value !== "string") throw new Undecodable(`${field} is not a string`);
  return value;
}

function sortedNames(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
    throw new Undecodable(`${field} is not a list of names`);
  return [...(value as string[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The fs scopes a definition reports, as tool() normalised them; none when it declares none. */
function fsScopes(value: unknown): LockedFs | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) throw new Undecodable("sandboxProfile.fs is not an object");
  const lists = {
    read: sortedNames(value.read ?? [], "sandboxProfile.fs.read"),
    write: sortedNames(value.write ?? [], "sandboxProfile.fs.write"),
  };
  const locked = lockedFs(lists);
  if (canonicalJson(locked ?? { read: [], write: [] }) !== canonicalJson(lists))
    throw new Undecodable("sandboxProfile.fs holds scopes tool() did not normalise");
  return locked;
}

function result(value: unknown): RequestedResult {
  if (!isPlainObject(value)) throw new Undecodable("result is not a result policy");
  if (value.policy === "artifact" && isPlainObject(value.artifact)) {
    const { strategy, maxInlineTokens, recovery } = value.artifact;
    if (!(Number.isSafeInteger(maxInlineTokens) && (maxInlineTokens as number) > 0))
      throw new Undecodable("result.maxInlineTokens is not a positive integer");
    return {
      policy: "artifact",
      artifact: {
        strategy: oneOf(strategy, ARTIFACT_STRATEGIES, "result.strategy"),
        maxInlineTokens: maxInlineTokens as number,
        recovery: oneOf(recovery, ARTIFACT_RECOVERIES, "result.recovery"),
      },
    };
  }
  return { policy: oneOf(value.policy, RESULT_POLICIES, "result") };
}

function schema(value: RawSchema | null, side: "input" | "output"): EvaluatedSchema | null {
  if (value === null) return null;
  if (!isPlainObject(value)) throw new Undecodable(`${side} is not a schema`);
  if (value.kind === "typebox" && isPlainObject(value.jsonSchema))
    return { kind: "typebox", jsonSchema: value.jsonSchema };
  if (value.kind === "standard") {
    const vendor = string(value.vendor, `${side} ~standard.vendor`);
    if (value.jsonSchema !== null && !isPlainObject(value.jsonSchema))
      throw new Undecodable(`${side} JSON Schema is not an object`);
    return { kind: "standard", vendor, jsonSchema: value.jsonSchema };
  }
  throw new Undecodable(`${side} JSON Schema is not an object`);
}

export function decodeTool(module: string, exportName: string, raw: RawTool): EvaluatedTool {
  if (!isPlainObject(raw)) throw new Undecodable("the definition is not an object");
  const effect = raw.effect;
  if (!isEffect(effect)) throw new Undecodable(`effect is ${JSON.stringify(effect) ?? String(effect)}`);
  if (!(Number.isSafeInteger(raw.timeout) && (raw.timeout as number) > 0))
    throw new Undecodable("timeout is not a positive integer");
  if (typeof raw.allowRepeat !== "boolean") throw new Undecodable("allowRepeat is not a boolean");
  if (raw.network !== false) throw new Undecodable("sandboxProfile.network is not false");
  if (typeof raw.addons !== "boolean") throw new Undecodable("sandboxProfile.addons is not a boolean");
  const hash = raw.schemaSemanticsSHA256;
  if (hash !== null && typeof hash !== "string") throw new Undecodable("schemaSemanticsSHA256 is not a string");
  return {
    module,
    exportName,
    name: string(raw.name, "name"),
    description: string(raw.description, "description"),
    effect,
    timeoutMs: raw.timeout as number,
    allowRepeat: raw.allowRepeat,
    sandbox: {
      mode: oneOf(raw.sandbox, SANDBOX_MODES, "sandbox"),
      network: false,
      env: sortedNames(raw.env, "sandboxProfile.env"),
      ...scopeFields(sortedNames(raw.egress, "sandboxProfile.egress"), secrets(raw.secrets)),
      fs: fsScopes(raw.fs),
      addons: raw.addons === true,
    },
    nestedTools: sortedNames(raw.nestedTools, "nestedTools"),
    result: result(raw.result),
    input: schema(raw.input, "input"),
    output: schema(raw.output, "output"),
    schemaSemanticsSHA256: hash,
  };
}

export function decodeAgent(module: string, exportName: string, raw: RawAgent): EvaluatedAgent {
  if (!isPlainObject(raw)) throw new Undecodable("the definition is not an object");
  const description = raw.description;
  if (description !== null && typeof description !== "string") throw new Undecodable("description is not a string");
  return { module, exportName, name: string(raw.name, "name"), description, tools: sortedNames(raw.tools, "tools") };
}

/** Checks the shape of a message from the child; anything else is a protocol failure. */
export function isChildMessage(value: unknown): value is ChildReply | { readonly type: "ready" } {
  if (!isPlainObject(value)) return false;
  if (value.type === "ready") return true;
  if (value.type === "sdk")
    return typeof value.shared === "boolean" && (value.message === null || typeof value.message === "string");
  if (typeof value.module !== "string") return false;
  if (value.type === "untrusted") return true;
  if (value.type === "threw") {
    const rule = value.rule as { code?: unknown; hint?: unknown; subject?: unknown } | null | undefined;
    const ruleOk =
      rule === null ||
      (typeof rule === "object" &&
        typeof rule.code === "string" &&
        typeof rule.hint === "string" &&
        typeof rule.subject === "string");
    return (
      typeof value.message === "string" &&
      (value.exitCode === null || typeof value.exitCode === "number") &&
      ruleOk &&
      (value.stack === null || typeof value.stack === "string")
    );
  }
  return value.type === "imported" && Array.isArray(value.exports) && value.exports.every(isExportReport);
}

function isExportReport(value: unknown): value is ExportReport {
  if (!isPlainObject(value) || typeof value.exportName !== "string") return false;
  if (value.kind === "tool") return isPlainObject(value.tool);
  if (value.kind === "agent") return isPlainObject(value.agent);
  const nullableString = (x: unknown) => x === null || typeof x === "string";
  return (
    value.kind === "unreadable" &&
    (value.what === "tool" || value.what === "agent") &&
    typeof value.message === "string" &&
    nullableString(value.code) &&
    nullableString(value.hint)
  );
}

/** The evaluated secrets: tool() filled in header and format, so each is { hosts, header, format } of strings. */
function secrets(raw: unknown): Record<string, SecretScope> {
  if (!isPlainObject(raw)) throw new Undecodable("sandboxProfile.secrets is not an object");
  const out: Record<string, SecretScope> = {};
  for (const [name, scope] of Object.entries(raw)) {
    if (!isPlainObject(scope)) throw new Undecodable(`sandboxProfile.secrets.${name} is not an object`);
    out[name] = {
      hosts: sortedNames(scope.hosts, `sandboxProfile.secrets.${name}.hosts`),
      header: string(scope.header, `sandboxProfile.secrets.${name}.header`),
      format: string(scope.format, `sandboxProfile.secrets.${name}.format`),
    };
  }
  return out;
}
