import { describeValue } from "../../src/contract/options.js";
import { invalidOption } from "../options/option-checks.js";
import { RuntimeError } from "../errors.js";
import { probeOsLayer, type OsLayer, type OsProbe } from "./os-layer.js";

/**
 * The one isolation setting (docs/sandbox.md): "os" runs every sandboxed child under the OS layer (bubblewrap)
 * and refuses to run where it cannot start; "auto" (default) uses it where it can and otherwise falls back to
 * the Node layers, saying so once on stderr and in every receipt; "node" uses the Node layers only (for hosts
 * that sandbox the whole process themselves, and to test that path).
 */
export type IsolationSetting = "os" | "auto" | "node";

/** What a child actually runs under: the OS layer with the Node layers inside it, or the Node layers only. */
export type Isolation = "os" | "node";

/** The environment variable a deploy sets the isolation with (an explicit option wins over it). */
export const ISOLATION_ENV = "CAVE_ISOLATION";

export const ISOLATION_SETTINGS: readonly IsolationSetting[] = ["os", "auto", "node"];

/** Where a setting was read from, for messages: a createRuntime() option, CAVE_ISOLATION, or the project's configuration. */
export interface ConfiguredIsolation {
  readonly value: unknown;
  readonly from: string;
}

/**
 * The one isolation setting, by precedence: the option, else CAVE_ISOLATION (a deploy's environment), else the
 * `isolation` key of the project's configuration (cave.config.json or package.json's "cave" key), else "auto".
 * `configured` is called only when neither option nor environment sets it. A value that is none of the three is
 * OPTIONS_INVALID naming where it came from.
 */
export function isolationSetting(
  option: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
  configured?: () => ConfiguredIsolation | undefined,
): IsolationSetting {
  if (option !== undefined) return checked(option, "isolation");
  const fromEnv = env[ISOLATION_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return checked(fromEnv, ISOLATION_ENV);
  const fromConfig = configured?.();
  if (fromConfig !== undefined) return checked(fromConfig.value, `isolation in ${fromConfig.from}`);
  return "auto";
}

function checked(value: unknown, what: string): IsolationSetting {
  if (!ISOLATION_SETTINGS.includes(value as IsolationSetting))
    invalidOption(`${what} must be "os", "auto" or "node" (got ${describeValue(value)})`);
  return value as IsolationSetting;
}

export type ResolvedIsolation =
  | { readonly isolation: "os"; readonly layer: OsLayer; readonly reason: null }
  /** `reason`: why the OS layer is not used (turned off, or why it cannot start here). */
  | { readonly isolation: "node"; readonly layer: null; readonly reason: string };

let warned = false;

/**
 * What children get under this setting here. "os" without a working OS layer throws SANDBOX_UNAVAILABLE naming
 * what to install or the setting that blocks it; "auto" then falls back and writes one loud line to stderr per
 * process.
 */
export async function resolveIsolation(setting: IsolationSetting, bwrap?: string): Promise<ResolvedIsolation> {
  if (setting === "node")
    return { isolation: "node", layer: null, reason: 'isolation is "node": the Node layers only' };
  return decideIsolation(setting, await probeOsLayer(bwrap));
}

/** The decision for "os" or "auto" given what the probe found (separate so that a test can give it a host without bwrap). */
export function decideIsolation(
  setting: "os" | "auto",
  probe: OsProbe,
  stderr: { write(text: string): unknown } = process.stderr,
): ResolvedIsolation {
  if (probe.available) return { isolation: "os", layer: probe.layer, reason: null };
  if (setting === "os") throw unavailable(probe.reason);
  if (!warned) {
    warned = true;
    stderr.write(
      `cave: WARNING: the sandbox's OS layer cannot start here, so sandboxed tools run with the Node layers only (isolation "auto"): ${probe.reason}. Receipts say isolation "node". Set isolation "os" (or ${ISOLATION_ENV}=os) to refuse to run instead.\n`,
    );
  }
  return { isolation: "node", layer: null, reason: probe.reason };
}

export function unavailable(reason: string): RuntimeError {
  return new RuntimeError(
    "SANDBOX_UNAVAILABLE",
    `isolation is "os" but the sandbox's OS layer cannot start here: ${reason}. Sandboxed tools are not run; fix that, or set isolation "auto" to run them with the Node layers only`,
  );
}
