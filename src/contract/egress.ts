/**
 * Scoped egress (sandboxProfile.egress and .secrets): how an entry is written, what it allows, and the secret
 * shape. One module for the SDK's definition-time checks, the compiler's lock and the runtime's broker, so the
 * three never disagree on what "api.github.com" or "*.example.com:8443" means.
 */

/** One parsed egress entry: a host (lowercase), whether it is `*.` + that host, and a port (null: 443 and 80). */
export interface EgressRule {
  readonly host: string;
  readonly wildcard: boolean;
  readonly port: number | null;
}

/** One declared credential: injected by the broker as `header: format with {} replaced by the value`, on requests to `hosts` only. */
export interface SecretScope {
  readonly hosts: readonly string[];
  readonly header: string;
  readonly format: string;
}

export const SECRET_KEYS = ["hosts", "header", "format"] as const;
export const SECRET_DEFAULTS = { header: "authorization", format: "Bearer {}" } as const;

/** Secret names: what an environment variable may be called (the value comes from the host's environment by default). */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An HTTP field name (RFC 9110 token), written in lowercase so the lock has one spelling. */
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;
/** Headers the broker owns (framing, routing, hop-by-hop): a secret may not be injected as one of them. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
  "expect",
]);

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Parses one egress entry ("api.github.com", "hooks.example.com:8443", "*.example.com", "127.0.0.1:8080"); a string
 * is the reason it is not one, worded to follow "egress entry X ...".
 */
export function parseEgressEntry(entry: string): EgressRule | string {
  if (/[/?#@\s[\]]/.test(entry))
    return 'is not a host name: write the host and an optional port only ("api.github.com", "hooks.example.com:8443"), no scheme, path or user';
  let rest = entry;
  let port: number | null = null;
  const colon = rest.lastIndexOf(":");
  if (colon >= 0) {
    const digits = rest.slice(colon + 1);
    if (!/^[1-9]\d{0,4}$/.test(digits) || Number(digits) > 65535)
      return `has port ${JSON.stringify(digits)}, which is not a number from 1 to 65535`;
    port = Number(digits);
    rest = rest.slice(0, colon);
  }
  if (/[A-Z]/.test(rest)) return "has capital letters; write host names in lowercase";
  if (/[/?#@\s[\]]/.test(rest) || rest.includes("://"))
    return 'is not a host name: write the host and an optional port only ("api.github.com", "hooks.example.com:8443"), no scheme, path or user';
  const wildcard = rest.startsWith("*.");
  const host = wildcard ? rest.slice(2) : rest;
  if (host.includes("*")) return 'has a wildcard other than one leading "*." label';
  if (IPV4.test(host)) return wildcard ? "puts a wildcard before an IP address" : { host, wildcard, port };
  const labels = host.split(".");
  if (host.length > 253 || !labels.every((label) => LABEL.test(label)))
    return "is not a valid host name (letters, digits and hyphens in dot-separated labels)";
  if (/^\d+$/.test(labels[labels.length - 1]!)) return "is not a valid host name (its last label is a number)";
  if (wildcard && labels.length < 2)
    return 'puts a wildcard right under a top-level domain; name at least the registered domain ("*.example.com")';
  return { host, wildcard, port };
}

/** The port a scheme uses when the URL names none. */
export function defaultPort(scheme: "http" | "https"): number {
  return scheme === "https" ? 443 : 80;
}

/**
 * Whether `rule` covers a request to host:port. A wildcard stands for exactly one label ("*.example.com" covers
 * "a.example.com", not "example.com" nor "a.b.example.com"), as in TLS certificates; an entry without a port covers
 * the default ports, 443 and 80.
 */
export function ruleCovers(rule: EgressRule, host: string, port: number): boolean {
  if (rule.port === null ? port !== 443 && port !== 80 : port !== rule.port) return false;
  if (!rule.wildcard) return host === rule.host;
  const dot = host.indexOf(".");
  return dot > 0 && host.slice(dot + 1) === rule.host;
}

/** The first entry of `entries` that covers host:port, or undefined. Unparseable entries cover nothing. */
export function coveringEntry(
  entries: readonly string[],
  host: string,
  port: number,
): { readonly entry: string; readonly rule: EgressRule } | undefined {
  for (const entry of entries) {
    const rule = parseEgressEntry(entry);
    if (typeof rule !== "string" && ruleCovers(rule, host, port)) return { entry, rule };
  }
  return undefined;
}

/** Why a secret's header name cannot be used, or undefined. */
export function badSecretHeader(header: string): string | undefined {
  if (!HEADER_NAME.test(header))
    return "is not an HTTP header name written in lowercase (letters, digits and !#$%&'*+.^_`|~-)";
  if (RESERVED_HEADERS.has(header) || header.startsWith("proxy-") || header.startsWith("x-cave-"))
    return "is a header the broker itself sets (framing, routing or hop-by-hop)";
  return undefined;
}

/** Why a secret's format cannot be used, or undefined: it holds "{}" exactly once, where the value goes. */
export function badSecretFormat(format: string): string | undefined {
  if (format.split("{}").length !== 2) return 'must contain "{}" exactly once, where the value goes (e.g. "Bearer {}")';
  if (/[\r\n\0]/.test(format)) return "contains a line break or NUL";
  return undefined;
}

/** A secret's value ready to send: the format applied. Undefined when the value cannot be a header value. */
export function secretHeaderValue(format: string, value: string): string | undefined {
  // A header value is visible ASCII, spaces and tabs (obs-text aside): anything else would split the header or be mangled.
  if (value === "" || !/^[\x20-\x7e\t]+$/.test(value)) return undefined;
  return format.replace("{}", () => value);
}

/** Secrets as written (header and format optional) with the defaults filled in, as tool() and the analyser both read them. */
export function withSecretDefaults(
  secrets: Readonly<
    Record<string, { readonly hosts: readonly string[]; readonly header?: string; readonly format?: string }>
  >,
): Record<string, SecretScope> {
  const out: Record<string, SecretScope> = {};
  for (const [name, s] of Object.entries(secrets))
    out[name] = {
      hosts: [...s.hosts],
      header: s.header ?? SECRET_DEFAULTS.header,
      format: s.format ?? SECRET_DEFAULTS.format,
    };
  return out;
}

/**
 * The scope fields of a locked sandbox: `egress` sorted and `secrets` by sorted name with sorted hosts, each present
 * only when declared, so that a lock without scoped egress keeps exactly the bytes it had before the fields existed.
 */
export function lockedScope(
  egress: readonly string[],
  secrets: Readonly<Record<string, SecretScope>>,
): { egress?: string[]; secrets?: Record<string, SecretScope> } {
  const out: { egress?: string[]; secrets?: Record<string, SecretScope> } = {};
  if (egress.length > 0) out.egress = [...egress].sort();
  const names = Object.keys(secrets).sort();
  if (names.length > 0) {
    const sorted: Record<string, SecretScope> = {};
    for (const name of names) {
      const s = secrets[name]!;
      sorted[name] = { format: s.format, header: s.header, hosts: [...s.hosts].sort() };
    }
    out.secrets = sorted;
  }
  return out;
}

/** Whether a secret's host is one the tool may reach: listed in egress as written, or (a plain host) covered by an entry at its port (443 when none). */
export function secretHostAllowed(egress: readonly string[], host: string): boolean {
  if (egress.includes(host)) return true;
  const rule = parseEgressEntry(host);
  return typeof rule !== "string" && !rule.wildcard && coveringEntry(egress, rule.host, rule.port ?? 443) !== undefined;
}
