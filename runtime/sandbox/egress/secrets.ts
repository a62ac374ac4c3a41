import { secretHeaderValue, type SecretScope } from "../../../src/contract/egress.js";
import type { SecretProvider } from "./options.js";

export type SecretValues =
  | { readonly ok: true; readonly values: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly name: string; readonly why: string };

/**
 * The values of a tool's secrets for one call, read before the tool starts: from the provider (a record, or a
 * function a deploy backs with a vault), else the host's environment. The first one missing or unusable as a header
 * value is named; a value is never part of a message.
 */
export async function secretValues(
  secrets: Readonly<Record<string, SecretScope>>,
  provider: SecretProvider | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SecretValues> {
  const values = new Map<string, string>();
  for (const [name, scope] of Object.entries(secrets).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let value: unknown;
    try {
      value =
        provider === undefined
          ? env[name]
          : typeof provider === "function"
            ? await provider(name)
            : Object.hasOwn(provider, name)
              ? provider[name]
              : undefined;
    } catch (thrown) {
      return {
        ok: false,
        name,
        why: `the secrets provider threw (${thrown instanceof Error ? thrown.message.slice(0, 200) : "a non-error"})`,
      };
    }
    const source = provider === undefined ? "the host's environment" : "the secrets provider";
    if (value === undefined || value === null || value === "")
      return { ok: false, name, why: `${source} has no value for it` };
    if (typeof value !== "string" || secretHeaderValue(scope.format, value) === undefined)
      return {
        ok: false,
        name,
        why: `the value ${source} gave is not usable as an HTTP header value (a string of visible ASCII characters)`,
      };
    values.set(name, value);
  }
  return { ok: true, values };
}
