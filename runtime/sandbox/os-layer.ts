import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readlinkSync,
  realpathSync,
} from "node:fs";
import { constants as osConstants } from "node:os";
import { dirname, isAbsolute, resolve as resolvePath } from "node:path";
import { childProcesses } from "./builtins.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/**
 * The operating-system layer of the sandbox on Linux: bubblewrap (`bwrap`) starts each child with every
 * namespace the host allows unshared, a fresh /proc, a private empty /tmp, no capabilities, a new session,
 * --die-with-parent, and a root file system that holds only read-only binds of the node binary, its shared
 * libraries and whatever the caller mounts (the bootstrap, the tool's staged files). Node's permission model
 * and the deny layer run inside it as further layers. This module probes once per process whether bwrap
 * works here and, if not, says exactly why; it builds the command line for a child.
 */

/** One bind mount into the sandbox: `path` on the host, seen at `target` (default: the same path). */
export interface Mount {
  readonly path: string;
  readonly target?: string;
  /** Read-write; read-only by default. */
  readonly write?: boolean;
}

/** The namespaces bwrap can unshare; the OS layer needs net, pid, ipc and the mount namespace at least. */
export type Namespace = "user" | "pid" | "net" | "ipc" | "uts" | "cgroup";

export interface OsLayer {
  /** bwrap's path (fixed locations only, never looked up through PATH). */
  readonly bwrap: string;
  /** The namespaces this host lets bwrap unshare (always pid, net, ipc, uts; user and cgroup where allowed). */
  readonly namespaces: readonly Namespace[];
  /** What every child gets mounted: the node binary and its libraries. */
  readonly base: readonly string[];
}

export type OsProbe =
  | { readonly available: true; readonly layer: OsLayer }
  | { readonly available: false; readonly reason: string };

/** Where bwrap is looked for when neither an option nor CAVE_BWRAP names it: fixed paths, never the host's PATH. */
const BWRAP_PATHS = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap", "/usr/sbin/bwrap"];
const INSTALL =
  "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Alpine: apk add bubblewrap)";

/** The environment variable naming bwrap where it is not at a usual path (NixOS, a vendored build); an absolute path. */
export const BWRAP_ENV = "CAVE_BWRAP";

const probes = new Map<string, Promise<OsProbe>>();

/**
 * Whether the OS layer can start here, probed once per process and bwrap location by starting `node --version`
 * inside it. `bwrap`: where bwrap is (the sandbox's option), else CAVE_BWRAP, else the first usual path holding it.
 */
export function probeOsLayer(
  bwrap?: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<OsProbe> {
  const named =
    bwrap !== undefined
      ? { path: bwrap, from: "the bwrap option" }
      : env[BWRAP_ENV]
        ? { path: env[BWRAP_ENV], from: BWRAP_ENV }
        : null;
  const key = named === null ? "" : `${named.from}\u0000${named.path}`;
  let found = probes.get(key);
  if (found === undefined) {
    found = probe(named);
    probes.set(key, found);
  }
  return found;
}

async function probe(named: { readonly path: string; readonly from: string } | null): Promise<OsProbe> {
  if (process.platform !== "linux")
    return { available: false, reason: `the OS layer (bubblewrap) is Linux-only and this is ${process.platform}` };
  let bwrap: string | undefined;
  if (named === null) {
    bwrap = BWRAP_PATHS.find((path) => existsSync(path));
    if (bwrap === undefined) return { available: false, reason: `bubblewrap (bwrap) is not installed: ${INSTALL}` };
  } else {
    if (!isAbsolute(named.path))
      return {
        available: false,
        reason: `${named.from} must be an absolute path to bwrap (got ${JSON.stringify(named.path)})`,
      };
    if (!existsSync(named.path))
      return {
        available: false,
        reason: `${named.from} names ${named.path}, which does not exist: ${INSTALL}, or point ${named.from} at its bwrap`,
      };
    bwrap = named.path;
  }
  let base: string[];
  try {
    base = baseMounts();
  } catch (thrown) {
    return {
      available: false,
      reason: `the node binary's files could not be located for the sandbox (${thrownText(thrown)})`,
    };
  }
  // Every namespace first; then without user and cgroup namespaces (root on a kernel or container that refuses
  // them can still make the others). pid and net are what the layer is for: without them it is unavailable.
  const attempts: Namespace[][] = [
    ["user", "pid", "net", "ipc", "uts", "cgroup"],
    ["pid", "net", "ipc", "uts", "cgroup"],
    ["pid", "net", "ipc", "uts"],
  ];
  let first = "";
  for (const namespaces of attempts) {
    const layer: OsLayer = { bwrap, namespaces, base };
    const result = await tryRun(osLayerCommand(layer, { mounts: [], command: [process.execPath, "--version"] }));
    if (result.ok) return { available: true, layer };
    if (first === "") first = result.stderr;
  }
  return { available: false, reason: whyNot(first, { uid: process.getuid?.() ?? 0, read: readSetting }) };
}

/**
 * The argv that runs `command` inside the OS layer, with `mounts` bound (read-only unless `write`) on top of the
 * base (the node binary and its libraries). `infoFd`: bwrap writes its JSON info (the sandbox's pid) there.
 */
export function osLayerCommand(
  layer: OsLayer,
  options: {
    readonly mounts: readonly Mount[];
    readonly command: readonly string[];
    readonly infoFd?: number;
    readonly chdir?: string;
  },
): string[] {
  const args = [layer.bwrap];
  for (const ns of layer.namespaces) args.push(`--unshare-${ns}`);
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "cave-sandbox");
  // The host's top-level symlinks (/lib -> usr/lib on merged-/usr systems), so the loader finds libraries where it looks.
  for (const [link, target] of topLevelLinks()) args.push("--symlink", target, link);
  for (const path of layer.base) args.push("--ro-bind", path, path);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  // The working directory the child expects (the project root), as an empty folder: its path, none of its contents.
  if (options.chdir !== undefined) args.push("--dir", options.chdir);
  for (const mount of options.mounts) {
    const target = mount.target ?? mount.path;
    if (!isAbsolute(mount.path) || !isAbsolute(target))
      throw new TypeError(`sandbox mounts need absolute paths (got ${JSON.stringify(mount.path)})`);
    args.push(mount.write === true ? "--bind" : "--ro-bind", mount.path, target);
  }
  if (options.infoFd !== undefined) args.push("--info-fd", String(options.infoFd));
  args.push("--chdir", options.chdir ?? "/", "--", ...options.command);
  return args;
}

/**
 * How the process bwrap ran ended, as Node would report it for the process itself: bwrap exits with 128 + the signal
 * number when its child was killed by a signal (so a genuine exit code above 128 reads as that signal too).
 */
export function sandboxedExit(
  code: number | null,
  signal: string | null,
): { code: number | null; signal: string | null } {
  if (signal !== null || code === null || code <= 128) return { code, signal };
  const name = Object.entries(osConstants.signals).find(([, number]) => number === code - 128)?.[0];
  return name === undefined ? { code, signal } : { code: null, signal: name };
}

/**
 * What every child needs to start node: the binary itself and the folders of the shared libraries this very node
 * process mapped (read from /proc/self/maps, so it is exactly this binary's loader and libraries, wherever they
 * live), the loader's path with each symlink on the way to it, and the loader's cache. Libraries under no system
 * prefix (a native addon the host loaded from a project) are left out.
 */
function baseMounts(): string[] {
  const paths = new Set<string>([realpathSync(process.execPath)]);
  const maps = readFileSync("/proc/self/maps", "latin1");
  for (const line of maps.split("\n")) {
    const file = line.slice(line.indexOf("/"));
    if (
      line.indexOf("/") < 0 ||
      !/\.so(\.[0-9.]+)?$/.test(file) ||
      !/^\/(usr|lib|lib32|lib64|libx32|opt|nix|gnu)\//.test(file)
    )
      continue;
    paths.add(dirname(file));
  }
  const interpreter = elfInterpreter(realpathSync(process.execPath));
  if (interpreter !== null) for (const hop of symlinkHops(interpreter)) paths.add(dirname(hop));
  if (existsSync("/etc/ld.so.cache")) paths.add("/etc/ld.so.cache");
  // A folder inside another one is covered by the outer bind; top-level symlinked folders are recreated instead.
  const links = new Set(topLevelLinks().map(([link]) => link));
  const real = [...paths].filter((path) => !links.has(path)).map((path) => realpathSync(path));
  const unique = [...new Set(real)].sort();
  return unique.filter((path) => !unique.some((other) => other !== path && path.startsWith(`${other}/`)));
}

let links: Array<[string, string]> | undefined;

/** The root's symbolic links to folders (/lib -> usr/lib, /bin -> usr/bin...), as [link, target]. */
function topLevelLinks(): Array<[string, string]> {
  links ??= ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"].flatMap((link): Array<[string, string]> => {
    try {
      return lstatSync(link).isSymbolicLink() ? [[link, readlinkSync(link)]] : [];
    } catch {
      return [];
    }
  });
  return links;
}

/** Every path a lookup of `path` passes through: itself and each symlink target after it. */
function symlinkHops(path: string): string[] {
  const hops = [path];
  let current = path;
  for (let i = 0; i < 16; i++) {
    let target: string;
    try {
      // The folder part is resolved (a top-level link); the last part may itself be a link.
      const folder = realpathSync(dirname(current));
      const here = resolvePath(folder, current.slice(current.lastIndexOf("/") + 1));
      hops.push(here);
      if (!lstatSync(here).isSymbolicLink()) break;
      target = resolvePath(folder, readlinkSync(here));
    } catch {
      break;
    }
    current = target;
  }
  return hops;
}

/** The ELF program interpreter (PT_INTERP) of a 64-bit little-endian executable, or null. */
function elfInterpreter(file: string): string | null {
  const fd = openSync(file, "r");
  try {
    const header = Buffer.alloc(64);
    readSync(fd, header, 0, 64, 0);
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return null;
    const phoff = Number(header.readBigUInt64LE(32));
    const phentsize = header.readUInt16LE(54);
    const phnum = header.readUInt16LE(56);
    const table = Buffer.alloc(phentsize * phnum);
    readSync(fd, table, 0, table.length, phoff);
    for (let i = 0; i < phnum; i++) {
      const entry = i * phentsize;
      if (table.readUInt32LE(entry) !== 3) continue; // PT_INTERP
      const offset = Number(table.readBigUInt64LE(entry + 8));
      const size = Number(table.readBigUInt64LE(entry + 32));
      const name = Buffer.alloc(size);
      readSync(fd, name, 0, size, offset);
      return name.toString("latin1").replace(/\0+$/, "");
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function tryRun(argv: readonly string[]): Promise<{ ok: boolean; stderr: string }> {
  return new Promise((resolve) => {
    let child;
    try {
      child = childProcesses().spawn(argv[0]!, argv.slice(1), { env: {}, stdio: ["ignore", "ignore", "pipe"] });
    } catch (thrown) {
      resolve({ ok: false, stderr: thrownText(thrown) });
      return;
    }
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-2000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, stderr: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, stderr: stderr.trim() });
    });
  });
}

function readSetting(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** Why bwrap could not start here, naming the setting that blocks it where one can be read (`host` is this machine; tests pass others). */
export function whyNot(stderr: string, host: { readonly uid: number; read(path: string): string | undefined }): string {
  const said = stderr === "" ? "" : ` (bwrap said: ${stderr.split("\n")[0]})`;
  const { uid, read } = host;
  if (uid !== 0) {
    if (read("/proc/sys/kernel/unprivileged_userns_clone") === "0")
      return `bubblewrap cannot create a user namespace: the kernel setting kernel.unprivileged_userns_clone is 0 (set it to 1, or run the host as root)${said}`;
    if (read("/proc/sys/user/max_user_namespaces") === "0")
      return `bubblewrap cannot create a user namespace: user.max_user_namespaces is 0 (raise it)${said}`;
    if (read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1") {
      return `bubblewrap cannot create a user namespace: AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1; allow bwrap with an AppArmor profile, or set it to 0)${said}`;
    }
  }
  if (/Operation not permitted|Permission denied/.test(stderr)) {
    return `bubblewrap is installed but may not create namespaces here: a container's default seccomp profile or missing privileges forbid it (run the container with a seccomp profile that allows unshare/clone of namespaces, e.g. --security-opt seccomp=unconfined, or give it CAP_SYS_ADMIN)${said}`;
  }
  return `bubblewrap failed to start a sandbox here${said}`;
}
