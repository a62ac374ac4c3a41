import {
  badSecretFormat,
  badSecretHeader,
  parseEgressEntry,
  SECRET_NAME,
  secretHostAllowed,
} from "../../src/contract/egress.js";

/**
 * The locked sandbox's scope fields (sandboxProfile.egress and .secrets; [] and {} when none), as [key, expected]
 * problems: what cave build writes is sorted, distinct and parseable, and a secret's hosts are egress entries too.
 */
export function scopeProblems(sandbox: Record<string, unknown>): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  const { egress, secrets } = sandbox;
  const entries = Array.isArray(egress) ? (egress as unknown[]) : [];
  if (!(Array.isArray(egress) && (egress.length === 0 || sortedEntries(egress))))
    out.push(["egress", "a sorted array of distinct egress entries (host or *.host, optional :port)"]);
  if (typeof secrets !== "object" || secrets === null || Array.isArray(secrets)) {
    out.push(["secrets", "an object of secret names"]);
    return out;
  }
  const names = Object.keys(secrets);
  if (names.join("\n") !== [...names].sort().join("\n")) out.push(["secrets", "keys in sorted order"]);
  for (const [name, scope] of Object.entries(secrets as Record<string, unknown>)) {
    const s = scope as Record<string, unknown> | null;
    const ok =
      SECRET_NAME.test(name) &&
      typeof s === "object" &&
      s !== null &&
      Object.keys(s).join(",") === "format,header,hosts" &&
      typeof s.header === "string" &&
      badSecretHeader(s.header) === undefined &&
      typeof s.format === "string" &&
      badSecretFormat(s.format) === undefined &&
      sortedEntries(s.hosts) &&
      (s.hosts as string[]).every((host) =>
        secretHostAllowed(
          entries.filter((entry): entry is string => typeof entry === "string"),
          host,
        ),
      );
    if (!ok)
      out.push([
        `secrets.${name}`,
        "{ format, header, hosts } with a valid header, a format holding {} once, and sorted hosts that egress allows",
      ]);
  }
  return out;
}

function sortedEntries(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  if (!value.every((entry) => typeof entry === "string" && typeof parseEgressEntry(entry) !== "string")) return false;
  for (let i = 1; i < value.length; i++) if (!((value[i - 1] as string) < (value[i] as string))) return false;
  return true;
}
