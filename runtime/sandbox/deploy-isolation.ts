import type { CaveLock } from "../../src/contract/lock.js";
import type { DeploymentProblem } from "../lock/deploy-check.js";
import { RuntimeError } from "../errors.js";
import { configuredValue } from "../options/project-config.js";
import { isolationSetting, unavailable, type IsolationSetting } from "./isolation.js";
import { osLayerRequired, osOnlyPowers } from "./os-only.js";
import { probeOsLayer } from "./os-layer.js";
import { grantScopes } from "./scopes.js";

/**
 * What `cave verify` says of the sandbox on the machine it runs on, as a deploy would find it: the isolation setting
 * (CAVE_ISOLATION, else the project's configuration) is valid; under "os" the OS layer starts here
 * (SANDBOX_UNAVAILABLE, naming what to install or the setting that blocks it); a tool whose powers only the OS layer
 * enforces would have it (OS_LAYER_REQUIRED); and every filesystem scope can be granted: its named runtime setting is
 * set in `env`, and each write scope exists or can be created (FS_SCOPE_UNAVAILABLE). Nothing is created. [] when
 * nothing is wrong.
 */
export async function checkIsolation(
  root: string,
  lock: CaveLock,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DeploymentProblem[]> {
  let setting: IsolationSetting;
  try {
    setting = isolationSetting(undefined, env, () => configuredValue(root, "isolation"));
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return [{ code: thrown.code, message: thrown.message }];
    throw thrown;
  }
  const needing = Object.keys(lock.tools)
    .sort()
    .map((name) => ({
      name,
      tool: lock.tools[name]!,
      powers: lock.tools[name]!.sandbox.mode === "required" ? osOnlyPowers(lock.tools[name]!.sandbox) : [],
    }))
    .filter(({ powers }) => powers.length > 0);
  if (setting !== "os" && needing.length === 0) return [];
  const probe =
    setting === "node"
      ? { available: false as const, reason: 'isolation is "node": the Node layers only' }
      : await probeOsLayer(undefined, env);
  if (!probe.available && setting === "os")
    return [{ code: "SANDBOX_UNAVAILABLE", message: unavailable(probe.reason).message }];
  const problems: DeploymentProblem[] = [];
  for (const { name, tool, powers } of needing) {
    if (!probe.available)
      problems.push({ code: "OS_LAYER_REQUIRED", message: osLayerRequired(name, powers, probe.reason) });
    const grant = tool.sandbox.fs === null ? null : grantScopes(tool.sandbox.fs, root, env, "check");
    if (grant !== null && "problem" in grant)
      problems.push({ code: "FS_SCOPE_UNAVAILABLE", message: `tool ${JSON.stringify(name)}: its ${grant.problem}` });
  }
  return problems;
}
