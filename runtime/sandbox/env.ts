import { credentialUrl, deniedEnvReason } from "../../src/contract/env-policy.js";

/**
 * The child's whole environment: the tool's locked allow-list (sandbox.env), each name that is not
 * denied (signing, deployment, bootstrap, database, ambient secrets: denied even when listed, should a
 * lock carry one) and is set on the host, unless its value is a database or credential URL (credentialUrl). Nothing else
 * of the host's environment, not even PATH.
 */
export function sandboxEnv(
  allowList: readonly string[],
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of allowList) {
    if (deniedEnvReason(name) !== undefined) continue;
    const value = Object.hasOwn(source, name) ? source[name] : undefined;
    // A URL carrying a database or credential scheme, or a user and password, is withheld whatever the name.
    if (typeof value === "string" && !credentialUrl(value)) env[name] = value;
  }
  return env;
}
