import { nodeFeatures, type PermissionFlag } from "./node-features.js";
import { probeOsLayer, type Namespace } from "./os-layer.js";
import type { IsolationSetting } from "./isolation.js";

/** Which protection layers a sandboxed child gets on this machine and Node version (docs/sandbox.md). */
export interface SandboxLayers {
  /** process.version of the host, which the child runs too. */
  readonly node: string;
  /** The isolation setting these layers were worked out for. */
  readonly isolation: IsolationSetting;
  /**
   * The OS layer (bubblewrap): whether children run under it with this setting here, the namespaces it unshares,
   * and why it is not active when it is not.
   */
  readonly osLayer: { readonly active: boolean; readonly namespaces: readonly Namespace[]; readonly reason: string };
  /** The permission model flag the child runs under, or null when this Node has none (the sandbox then refuses to run). */
  readonly permissionModel: PermissionFlag | null;
  /** The permission model itself refuses the network (Node 25+, which has `--allow-net`; never passed); earlier versions do not. */
  readonly permissionDeniesNetwork: boolean;
  /** The JavaScript deny layer over every network route, native handle and escape hatch: always. */
  readonly denyLayer: true;
  /** The child has its own session and process group, killed as a whole (not on Windows). */
  readonly processGroup: boolean;
  /** The host polls the child's resident memory and kills it past maxRssMb (Linux: /proc). */
  readonly rssWatchdog: boolean;
}

/** The permission model's flag on this Node: `--permission` from 22.13, `--experimental-permission` before (24+ reject the old name). */
export function permissionFlag(): PermissionFlag | null {
  return nodeFeatures().permissionFlag;
}

/** The layers a child started with this setting gets here. The OS layer is probed once per process. */
export async function sandboxLayers(setting: IsolationSetting = "auto", bwrap?: string): Promise<SandboxLayers> {
  const features = nodeFeatures();
  let osLayer: SandboxLayers["osLayer"];
  if (setting === "node") osLayer = { active: false, namespaces: [], reason: 'turned off (isolation "node")' };
  else {
    const probe = await probeOsLayer(bwrap);
    osLayer = probe.available
      ? {
          active: true,
          namespaces: probe.layer.namespaces,
          reason: `children run under bubblewrap (${probe.layer.bwrap})`,
        }
      : {
          active: false,
          namespaces: [],
          reason: setting === "os" ? `${probe.reason} (isolation "os": sandboxed tools are refused)` : probe.reason,
        };
  }
  return {
    node: features.version,
    isolation: setting,
    osLayer,
    permissionModel: features.permissionFlag,
    permissionDeniesNetwork: features.permissionDeniesNetwork,
    denyLayer: true,
    processGroup: process.platform !== "win32",
    rssWatchdog: process.platform === "linux",
  };
}

/**
 * Characters Node's --allow-fs-read/--allow-fs-write interpret: `*` is a wildcard and early Node 20 releases split
 * the value at commas. A path holding one cannot be granted exactly, so the sandbox refuses it (weakness 6 of the
 * sandbox-boundary issue); null when the path is safe to grant.
 */
export function unsafePermissionPath(path: string): string | null {
  const found = /[*,]/.exec(path);
  return found === null ? null : found[0];
}
