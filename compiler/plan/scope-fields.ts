import { lockedScope, type SecretScope } from "../../src/contract/egress.js";

/**
 * A locked sandbox's egress and secrets as lock v2 writes them: lockedScope's sorted fields, [] and {} when none is
 * declared (regular fields since v2). Kept out of src/contract/egress.ts, which every staged SDK carries.
 */
export function scopeFields(
  egress: readonly string[],
  secrets: Readonly<Record<string, SecretScope>>,
): { egress: string[]; secrets: Record<string, SecretScope> } {
  const { egress: hosts = [], secrets: named = {} } = lockedScope(egress, secrets);
  return { egress: hosts, secrets: named };
}
