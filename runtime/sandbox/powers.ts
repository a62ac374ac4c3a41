import type { LockedTool } from "../../src/contract/lock.js";

/**
 * The powers a locked tool declares beyond the sandbox's defaults, by the profile field that grants each. Every one
 * of them needs the OS layer: the Node layers alone cannot confine them (a broker socket without a mount namespace
 * is a path any process of the host's user may reach), so a tool declaring one is refused where children run with
 * the Node layers only.
 */
export function declaredPowers(tool: LockedTool): string[] {
  const powers: string[] = [];
  if (tool.sandbox.egress !== undefined) powers.push("sandboxProfile.egress");
  if (tool.sandbox.secrets !== undefined) powers.push("sandboxProfile.secrets");
  return powers;
}

/** Why a tool declaring `powers` is not run with the Node layers only (`reason`: why the OS layer is not used). */
export function powersRefusal(name: string, powers: readonly string[], reason: string): string {
  return `tool ${JSON.stringify(name)} declares ${powers.join(" and ")}, which need${powers.length === 1 ? "s" : ""} the sandbox's OS layer, and children run with the Node layers only here (${reason}); it was not run. Install bubblewrap and let it create namespaces (docs/sandbox.md), or set isolation "os" to refuse at start`;
}
