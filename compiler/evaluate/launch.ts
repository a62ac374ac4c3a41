import { decideIsolation, isolationSetting, type IsolationSetting } from "../../runtime/sandbox/isolation.js";
import { probeOsLayer } from "../../runtime/sandbox/os-layer.js";
import type { Launch } from "./session.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/**
 * How build-time evaluation children start, by the same isolation setting as the runtime's sandbox (CAVE_ISOLATION,
 * else `configured`, the project configuration's isolation; default "auto"): under the OS layer where it starts here (no network, no host file or socket, whatever a module
 * tries at import), else with the Node layers only, said once on stderr; "os" without it is an error.
 */
export async function evaluationLaunch(
  configured?: IsolationSetting,
): Promise<Launch | { readonly unavailable: string }> {
  let setting;
  try {
    setting = isolationSetting(
      undefined,
      process.env,
      configured === undefined ? undefined : () => ({ value: configured, from: "cave.config.json" }),
    );
  } catch (thrown) {
    return { unavailable: thrownText(thrown) };
  }
  if (setting === "node") return { osLayer: null };
  try {
    return { osLayer: decideIsolation(setting, await probeOsLayer()).layer };
  } catch (thrown) {
    return { unavailable: `build-time evaluation was not run: ${thrownText(thrown)}` };
  }
}
