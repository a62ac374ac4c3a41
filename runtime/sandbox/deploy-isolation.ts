import type { DeploymentProblem } from "../deploy-check.js";
import { RuntimeError } from "../errors.js";
import { configuredValue } from "../project-config.js";
import { isolationSetting, unavailable, type IsolationSetting } from "./isolation.js";
import { probeOsLayer } from "./os-layer.js";

/**
 * What `cave verify` says of the sandbox on the machine it runs on, as a deploy would find it: the isolation setting
 * (CAVE_ISOLATION, else the project's configuration) is valid, and under "os" the OS layer starts here
 * (SANDBOX_UNAVAILABLE otherwise, naming what to install or the setting that blocks it). [] when nothing is wrong.
 */
export async function checkIsolation(root: string, env: Readonly<Record<string, string | undefined>>): Promise<DeploymentProblem[]> {
  let setting: IsolationSetting;
  try {
    setting = isolationSetting(undefined, env, () => configuredValue(root, "isolation"));
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return [{ code: thrown.code, message: thrown.message }];
    throw thrown;
  }
  if (setting !== "os") return [];
  const probe = await probeOsLayer(undefined, env);
  return probe.available ? [] : [{ code: "SANDBOX_UNAVAILABLE", message: unavailable(probe.reason).message }];
}
