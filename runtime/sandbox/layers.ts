import { childProcesses } from "./child-process.js";
import { existsSync } from "node:fs";
import { nodeFeatures, type PermissionFlag } from "../node-features.js";

/** How the sandbox's empty network namespace is made, when it is. */
export type NamespaceMethod = "unshare --net" | "unshare --map-root-user --net";

/** Which protection layers a sandboxed child gets on this machine and Node version (docs/sandbox.md). */
export interface SandboxLayers {
  /** process.version of the host, which the child runs too. */
  readonly node: string;
  /** The permission model flag the child runs under, or null when this Node has none (the sandbox then refuses to run). */
  readonly permissionModel: PermissionFlag | null;
  /** The permission model itself refuses the network (Node 25+, which has `--allow-net`; never passed); earlier versions do not. */
  readonly permissionDeniesNetwork: boolean;
  /** The JavaScript deny layer over every network route and escape hatch: always. */
  readonly denyLayer: true;
  /** The child runs in an empty network namespace (Linux, when unshare is allowed here). */
  readonly networkNamespace: { readonly active: boolean; readonly method: NamespaceMethod | null; readonly reason: string };
  /** The child has its own session and process group, killed as a whole (not on Windows). */
  readonly processGroup: boolean;
  /** The host polls the child's resident memory and kills it past maxRssMb (Linux: /proc). */
  readonly rssWatchdog: boolean;
}

export type NamespaceSetting = "auto" | "off" | "required";

/** Where unshare is looked for: fixed paths, never the host's PATH. */
const UNSHARE_PATHS = ["/usr/bin/unshare", "/bin/unshare", "/usr/sbin/unshare", "/sbin/unshare"];

let namespaceProbe: Promise<{ method: NamespaceMethod | null; unshare: string | null; reason: string }> | undefined;

/** The permission model's flag on this Node: `--permission` from 22.13, `--experimental-permission` before (24+ reject the old name). */
export function permissionFlag(): PermissionFlag | null {
  return nodeFeatures().permissionFlag;
}

/** The layers a child started with this setting gets here. Probing unshare happens once per process. */
export async function sandboxLayers(setting: NamespaceSetting = "auto"): Promise<SandboxLayers> {
  const features = nodeFeatures();
  const probe = setting === "off" ? { method: null, reason: "turned off (networkNamespace: \"off\")" } : await probeNamespace();
  return {
    node: features.version,
    permissionModel: features.permissionFlag,
    permissionDeniesNetwork: features.permissionDeniesNetwork,
    denyLayer: true,
    networkNamespace: { active: probe.method !== null, method: probe.method, reason: probe.reason },
    processGroup: process.platform !== "win32",
    rssWatchdog: process.platform === "linux",
  };
}

/** The unshare command prefix for a child, or null without a namespace. */
export async function namespacePrefix(setting: NamespaceSetting): Promise<readonly string[] | null> {
  if (setting === "off") return null;
  const probe = await probeNamespace();
  if (probe.method === null || probe.unshare === null) return null;
  return probe.method === "unshare --net" ? [probe.unshare, "--net", "--"] : [probe.unshare, "--map-root-user", "--net", "--"];
}

function probeNamespace(): Promise<{ method: NamespaceMethod | null; unshare: string | null; reason: string }> {
  namespaceProbe ??= (async () => {
    if (process.platform !== "linux") return { method: null, unshare: null, reason: `network namespaces are a Linux feature (this is ${process.platform})` };
    const unshare = UNSHARE_PATHS.find((path) => existsSync(path));
    if (unshare === undefined) return { method: null, unshare: null, reason: "unshare (util-linux) is not installed" };
    // Root (or CAP_SYS_ADMIN) can make a network namespace directly; an unprivileged user needs a user namespace too.
    if (await runs(unshare, ["--net"])) return { method: "unshare --net" as const, unshare, reason: "the child runs in an empty network namespace" };
    if (await runs(unshare, ["--map-root-user", "--net"])) return { method: "unshare --map-root-user --net" as const, unshare, reason: "the child runs in an empty network namespace (inside a user namespace)" };
    return { method: null, unshare, reason: "this host does not allow creating network namespaces (unshare failed)" };
  })();
  return namespaceProbe;
}

function runs(unshare: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = childProcesses().spawn(unshare, [...args, "--", process.execPath, "--version"], { env: {}, stdio: "ignore" });
    } catch {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.on("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
