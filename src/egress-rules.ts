import {
  badSecretFormat,
  badSecretHeader,
  parseEgressEntry,
  SECRET_KEYS,
  SECRET_NAME,
  secretHostAllowed,
} from "./contract/egress.js";
import type { Violation } from "./errors.js";
import { checkUnknownKeys } from "./unknown-keys.js";

/** Anything `cave build` could not read statically: such a value is reported by the analyser, not here. */
type Known = (value: unknown) => boolean;

const EGRESS_HINT =
  'List hosts with an optional port, e.g. ["api.github.com", "hooks.example.com:8443", "*.example.com"].';

/**
 * The rules of sandboxProfile.egress and .secrets (scoped egress through the host's broker). `effect` and `sandbox`
 * are the tool's: a `read` tool may not leave the process (it may run in fixture mode and be speculated), and an
 * in-process tool (sandbox: "none") has the whole network, so a scope there would promise what nothing enforces.
 */
export function checkEgress(
  profile: Record<string, unknown>,
  effect: unknown,
  sandbox: unknown,
  known: Known,
): Violation[] {
  const out: Violation[] = [];
  const { egress, secrets, env } = profile;
  const declared =
    (egress !== undefined && (!Array.isArray(egress) || egress.length > 0)) ||
    (secrets !== undefined && (typeof secrets !== "object" || secrets === null || Object.keys(secrets).length > 0));
  if (declared && effect === "read") {
    out.push({
      code: "CAVE1261",
      field: egress !== undefined ? "sandboxProfile.egress" : "sandboxProfile.secrets",
      message:
        "a read tool may not declare egress or secrets: a tool that reaches the network leaves the process, and read tools run in fixture mode and may be speculated",
      hint: 'Declare the effect the call has: "external", or "write" / "idempotent" when it changes something.',
    });
  }
  if (declared && sandbox === "none") {
    out.push({
      code: "CAVE1264",
      field: egress !== undefined ? "sandboxProfile.egress" : "sandboxProfile.secrets",
      message:
        'egress and secrets are enforced by the sandbox\'s broker and have no effect with sandbox: "none": an in-process tool reaches every host and sees the whole environment',
      hint: 'Drop sandbox: "none" so the scope is enforced, or drop egress and secrets.',
    });
  }
  const entries: string[] = [];
  if (egress !== undefined && known(egress)) {
    if (!Array.isArray(egress))
      out.push({
        code: "CAVE1260",
        field: "sandboxProfile.egress",
        message: "sandboxProfile.egress is not an array of hosts",
        hint: EGRESS_HINT,
      });
    else {
      egress.forEach((entry, i) => {
        const field = `sandboxProfile.egress[${i}]`;
        if (!known(entry)) return;
        if (typeof entry !== "string")
          return out.push({ code: "CAVE1260", field, message: "an egress entry is not a string", hint: EGRESS_HINT });
        const parsed = parseEgressEntry(entry);
        if (typeof parsed === "string")
          return out.push({
            code: "CAVE1260",
            field,
            message: `egress entry ${JSON.stringify(entry)} ${parsed}`,
            hint: EGRESS_HINT,
          });
        if (entries.includes(entry))
          return out.push({
            code: "CAVE1260",
            field,
            message: `egress entry ${JSON.stringify(entry)} is listed twice`,
            hint: "List each host once.",
          });
        entries.push(entry);
        return undefined;
      });
    }
  }
  if (secrets === undefined || !known(secrets)) return out;
  if (typeof secrets !== "object" || secrets === null || Array.isArray(secrets)) {
    out.push({
      code: "CAVE1262",
      field: "sandboxProfile.secrets",
      message: "sandboxProfile.secrets is not an object of secret names",
      hint: 'Pass { GITHUB_TOKEN: { hosts: ["api.github.com"], header: "authorization", format: "Bearer {}" } }.',
    });
    return out;
  }
  const envNames = Array.isArray(env) ? env : [];
  for (const [name, scope] of Object.entries(secrets)) {
    const field = `sandboxProfile.secrets.${name}`;
    if (!SECRET_NAME.test(name))
      out.push({
        code: "CAVE1262",
        field,
        message: `secret name ${JSON.stringify(name)} is not a valid name`,
        hint: "Secret names are environment variable names: ^[A-Za-z_][A-Za-z0-9_]*$.",
      });
    if (envNames.includes(name))
      out.push({
        code: "CAVE1262",
        field,
        message: `"${name}" is both a secret and in sandboxProfile.env: a secret's value never enters the tool's process`,
        hint: "Remove it from env; the broker adds it to requests to the secret's hosts.",
      });
    if (!known(scope)) continue;
    if (typeof scope !== "object" || scope === null || Array.isArray(scope)) {
      out.push({
        code: "CAVE1262",
        field,
        message: `secret "${name}" is not an object`,
        hint: 'Pass { hosts: ["api.github.com"], header: "authorization", format: "Bearer {}" } (header and format default to those).',
      });
      continue;
    }
    const s = scope as Record<string, unknown>;
    out.push(...checkUnknownKeys(s, SECRET_KEYS, `${field}.`));
    if (known(s.header) && s.header !== undefined) {
      const bad = typeof s.header === "string" ? badSecretHeader(s.header) : "is not a string";
      if (bad !== undefined)
        out.push({
          code: "CAVE1262",
          field: `${field}.header`,
          message: `header ${JSON.stringify(s.header)} ${bad}`,
          hint: 'Use the header the API reads the credential from, e.g. "authorization" or "x-api-key".',
        });
    }
    if (known(s.format) && s.format !== undefined) {
      const bad = typeof s.format === "string" ? badSecretFormat(s.format) : "is not a string";
      if (bad !== undefined)
        out.push({
          code: "CAVE1262",
          field: `${field}.format`,
          message: `format ${JSON.stringify(s.format)} ${bad}`,
          hint: 'Write the header value with {} where the secret goes: "Bearer {}", "token {}", or "{}".',
        });
    }
    if (!known(s.hosts)) continue;
    if (!Array.isArray(s.hosts) || s.hosts.length === 0) {
      out.push({
        code: "CAVE1262",
        field: `${field}.hosts`,
        message: `secret "${name}" has no hosts list`,
        hint: "List the hosts that receive it; each must also be in sandboxProfile.egress.",
      });
      continue;
    }
    s.hosts.forEach((host, i) => {
      const at = `${field}.hosts[${i}]`;
      if (!known(host)) return;
      const parsed = typeof host === "string" ? parseEgressEntry(host) : "is not a string";
      if (typeof parsed === "string")
        return out.push({
          code: "CAVE1262",
          field: at,
          message: `host ${JSON.stringify(host)} ${parsed}`,
          hint: EGRESS_HINT,
        });
      if (!secretHostAllowed(entries, host as string))
        return out.push({
          code: "CAVE1263",
          field: at,
          message: `secret "${name}" is sent to ${JSON.stringify(host)}, which sandboxProfile.egress does not allow`,
          hint: `Add ${JSON.stringify(host)} to sandboxProfile.egress, or remove it from the secret's hosts.`,
        });
      return undefined;
    });
  }
  return out;
}
