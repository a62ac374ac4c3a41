import { net } from "../builtins.js";
import { describeValue, isOptionObject } from "../../../src/contract/options.js";
import { checkOptions, invalidOption } from "../../options/option-checks.js";

/** Where secret values come from: a record, or a function a deploy backs with a vault (called before each call that needs the secret). */
export type SecretProvider =
  | Readonly<Record<string, string>>
  | ((name: string) => string | undefined | Promise<string | undefined>);

/** The egress broker's options (createSandboxDispatcher({ egress }), createRuntime({ egress })). */
export interface EgressOptions {
  /**
   * For tests and local development: host names the broker resolves to these addresses instead of asking DNS,
   * "127.0.0.1" or "127.0.0.1:8080" (the port, when given, replaces the URL's port for the connection only, as
   * curl's --connect-to does; policy is still decided on the URL's host and port).
   */
  readonly resolve?: Readonly<Record<string, string>>;
  /** Certificate authorities (PEM) trusted for upstream TLS besides the default ones. */
  readonly ca?: string | readonly string[];
}

export interface ResolvedEgressOptions {
  readonly resolve: ReadonlyMap<string, { readonly address: string; readonly port: number | null }>;
  readonly ca: readonly string[];
}

const EGRESS_RULES = { resolve: null, ca: null };

/** Checks the egress options (unknown keys refused). */
export function resolveEgressOptions(options: unknown): ResolvedEgressOptions {
  const o = checkOptions(options ?? {}, "egress options", EGRESS_RULES);
  const resolve = new Map<string, { address: string; port: number | null }>();
  if (o.resolve !== undefined) {
    const entries = plainRecord(o.resolve, "egress.resolve must be an object of host names to addresses");
    for (const [host, target] of Object.entries(entries)) {
      const match = typeof target === "string" ? /^(.+?)(?::(\d{1,5}))?$/.exec(target) : null;
      const address = match?.[1]?.replace(/^\[(.*)\]$/, "$1");
      if (
        match === null ||
        address === undefined ||
        net().isIP(address) === 0 ||
        (match[2] !== undefined && (Number(match[2]) < 1 || Number(match[2]) > 65535))
      ) {
        invalidOption(
          `egress.resolve[${JSON.stringify(host)}] must be an IP address with an optional port ("127.0.0.1" or "127.0.0.1:8080"; got ${describeValue(target)})`,
        );
      }
      resolve.set(host.toLowerCase(), { address, port: match[2] === undefined ? null : Number(match[2]) });
    }
  }
  const ca = o.ca === undefined ? [] : typeof o.ca === "string" ? [o.ca] : o.ca;
  if (
    !Array.isArray(ca) ||
    !ca.every((pem) => typeof pem === "string" && pem.includes("-----BEGIN CERTIFICATE-----"))
  ) {
    invalidOption(`egress.ca must be a PEM certificate string or an array of them (got ${describeValue(o.ca)})`);
  }
  return { resolve, ca: [...(ca as string[])] };
}

/** Checks the secrets option: a record of strings or a function. */
export function secretProvider(option: unknown): SecretProvider | undefined {
  if (option === undefined || typeof option === "function") return option as SecretProvider | undefined;
  const record = plainRecord(option, "secrets must be an object of names to values, or a function (name) => value");
  for (const [name, value] of Object.entries(record))
    if (typeof value !== "string")
      invalidOption(`secrets[${JSON.stringify(name)}] must be a string (got ${describeValue(value)})`);
  return record as Record<string, string>;
}

/** An object whose keys are the caller's (host names, secret names), not option names. */
function plainRecord(value: unknown, message: string): Record<string, unknown> {
  if (!isOptionObject(value)) invalidOption(message);
  return value as Record<string, unknown>;
}
