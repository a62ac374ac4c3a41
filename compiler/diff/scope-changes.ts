import { parseEgressEntry, type SecretScope } from "../../src/contract/egress.js";
import type { LockedSandbox } from "../../src/contract/lock.js";
import type { LockChange } from "./types.js";

/**
 * Scoped egress as review sees it: every host a tool may now reach, every secret it may now use and every host that
 * secret now goes to is a new power, one change each, so that a reviewer reads "may now reach api.github.com" and
 * "GITHUB_TOKEN is now sent to api.github.com" rather than a changed list. A wildcard entry says what it stands for.
 * `before` is null for a tool that is new.
 */
export function scopeChanges(name: string, before: LockedSandbox | null, after: LockedSandbox): LockChange[] {
  const subject = { type: "tool" as const, name };
  const out: LockChange[] = [];
  const change = (
    kind: LockChange["kind"],
    impact: LockChange["impact"],
    message: string,
    b: unknown,
    a: unknown,
  ): void => {
    out.push({ kind, impact, subject, path: null, message, details: [], before: b ?? null, after: a ?? null });
  };
  const was = before?.egress ?? [];
  const now = after.egress;
  for (const entry of now)
    if (!was.includes(entry))
      change(
        "egress-host-added",
        "risky",
        `may now reach ${describeEntry(entry)} through the egress broker`,
        null,
        entry,
      );
  for (const entry of was)
    if (!now.includes(entry))
      change("egress-host-removed", "info", `can no longer reach ${describeEntry(entry)}`, entry, null);
  const hadSecrets = before?.secrets ?? {};
  const hasSecrets = after.secrets;
  for (const [secret, scope] of Object.entries(hasSecrets)) {
    const old = Object.hasOwn(hadSecrets, secret) ? hadSecrets[secret] : undefined;
    if (old === undefined)
      change(
        "secret-added",
        "risky",
        `may now use the secret ${secret}, injected by the broker as ${sentAs(scope)}`,
        null,
        scope,
      );
    else if (old.header !== scope.header || old.format !== scope.format)
      change(
        "secret-changed",
        "risky",
        `the secret ${secret} is now sent as ${sentAs(scope)} (was ${sentAs(old)})`,
        old,
        scope,
      );
    for (const host of scope.hosts)
      if (old === undefined || !old.hosts.includes(host))
        change("secret-host-added", "risky", `the secret ${secret} is now sent to ${describeEntry(host)}`, null, {
          secret,
          host,
        });
    for (const host of old?.hosts ?? [])
      if (!scope.hosts.includes(host))
        change(
          "secret-host-removed",
          "info",
          `the secret ${secret} is no longer sent to ${describeEntry(host)}`,
          { secret, host },
          null,
        );
  }
  for (const secret of Object.keys(hadSecrets))
    if (!Object.hasOwn(hasSecrets, secret))
      change("secret-removed", "info", `no longer uses the secret ${secret}`, hadSecrets[secret], null);
  return out;
}

/** "api.github.com (ports 443 and 80)", "hooks.example.com port 8443", "*.example.com (a wildcard: ...)". */
export function describeEntry(entry: string): string {
  const rule = parseEgressEntry(entry);
  if (typeof rule === "string") return entry;
  const ports = rule.port === null ? "ports 443 and 80" : `port ${rule.port}`;
  return rule.wildcard
    ? `${entry} (a wildcard: any single-label name under ${rule.host}, ${ports})`
    : `${rule.host} (${ports})`;
}

function sentAs(scope: SecretScope): string {
  return `header ${scope.header}: ${JSON.stringify(scope.format)}`;
}
