// The sandbox's OS layer (bubblewrap, the sandbox-boundary issue): what a child under it can see, that the
// host's kills reach the real node process inside it, and the isolation setting. On Linux the OS layer must
// be available (.ci/run installs bubblewrap): its tests fail there rather than skip.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideIsolation, isolationSetting } from "../../runtime/sandbox/isolation.js";
import { osLayerCommand, probeOsLayer, whyNot } from "../../runtime/sandbox/os-layer.js";
import { createRuntime } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { startHost } from "./support/host-process.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, code, gone, sandboxed } from "./support/runtime.js";
import { waitFor } from "./support/wait-for.js";

const linux = process.platform === "linux";
const probe = await probeOsLayer();

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

/** Every process below `pid` on this machine (read from /proc). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, of] of parents) {
      if (of === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

describe.skipIf(!linux)("the OS layer on this Linux host", () => {
  it("is available, with the pid, network, ipc and uts namespaces unshared", () => {
    expect(probe.available, probe.available ? "" : probe.reason).toBe(true);
    if (!probe.available) return;
    expect(probe.layer.namespaces).toEqual(expect.arrayContaining(["pid", "net", "ipc", "uts"]));
  });

  it("a child's file system holds only node, its libraries, its bootstrap and its bundle: no /home, /root, /run, /var, project or host socket", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "os", spare: false } });
    expect(code(await runtime.call("add", { a: 1, b: 2 }))).toBe("ok");
    const [pid] = sandbox.pids();
    // The host (root here, or the same user) sees the child's root through /proc/<pid>/root.
    const top = readdirSync(`/proc/${pid}/root`).sort();
    // The system folders node needs, /dev, /proc, /tmp, and the first folder of the paths bound (the bundle's and
    // the bootstrap's, and the node binary's, which hold nothing else: a Node installed under /root/.cache by
    // .ci/node-install brings /root with only that path in it): nothing else of the host's /home, /root, /run, /var...
    const bound = [root, process.cwd(), process.execPath].map((path) => path.split("/")[1]!);
    const expected = new Set([
      "bin",
      "dev",
      "etc",
      "lib",
      "lib32",
      "lib64",
      "libx32",
      "proc",
      "sbin",
      "tmp",
      "usr",
      ...bound,
    ]);
    expect(top.filter((entry) => !expected.has(entry))).toEqual([]);
    for (const absent of ["home", "root", "run", "var", "srv", "mnt"])
      if (!bound.includes(absent)) expect(top).not.toContain(absent);
    // A private /tmp: nothing of the host's, only the way to the project root when that lies under /tmp, and the
    // runtime's private copy of this tool's verified files (runtime/loading/private-copy.ts), bound read-only.
    const onTheWay = (entry: string) =>
      [root, process.cwd(), process.execPath].some(
        (path) => path.startsWith(`/tmp/${entry}/`) || path === `/tmp/${entry}`,
      );
    const seen = readdirSync(`/proc/${pid}/root/tmp`).filter((entry) => !onTheWay(entry));
    expect(seen.filter((entry) => !/^cave-copy-/.test(entry))).toEqual([]);
    expect(seen.length).toBeLessThanOrEqual(1);
    // The project root is an empty folder there (the working directory): the bundle is bound from the private copy.
    expect(readdirSync(`/proc/${pid}/root${root}`)).toEqual([]);
    expect(() => readdirSync(`/proc/${pid}/root${root}/tools`)).toThrow(/ENOENT/);
  });

  it("a child has its own pid, network, ipc, uts and mount namespaces, and no capabilities", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "os", spare: false } });
    expect(code(await runtime.call("add", { a: 1, b: 2 }))).toBe("ok");
    const [pid] = sandbox.pids();
    for (const ns of ["pid", "net", "ipc", "uts", "mnt"])
      expect(readlinkSync(`/proc/${pid}/ns/${ns}`), ns).not.toBe(readlinkSync(`/proc/self/ns/${ns}`));
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    // Inside its pid namespace it is not the host's pid.
    expect(status).toMatch(/^NSpid:\s+\d+\s+\d+$/m);
  });

  it("the deadline kill reaches the real node process inside bwrap", async () => {
    // One child at most: a warm-up call that times out while its child loads leaves that child to finish, and a retry
    // could otherwise start a second one, which the spin below need not be the one to run in.
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "os", spare: false, maxChildren: 1 } });
    let warm = await runtime.call("spin", { kind: "pid" });
    for (let i = 0; i < 10 && !warm.ok; i++) warm = await runtime.call("spin", { kind: "pid" });
    expect(code(warm)).toBe("ok");
    expect(sandbox.pids()).toHaveLength(1);
    const [pid] = sandbox.pids();
    const tree = [pid!, ...descendants(pid!)];
    expect(readFileSync(`/proc/${pid}/cmdline`, "latin1")).toContain("bootstrap.mjs");
    expect(code(await runtime.call("spin", { kind: "spin" }))).toBe("TIMEOUT");
    for (const each of tree) expect(await gone(each), `pid ${each}`).toBe(true);
  });

  it("the RSS watchdog measures and kills the real node process inside bwrap", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "os", spare: false, maxRssMb: 256 } });
    // bomb's 30 s timeout outlasts any start-up, so the first call starts the one child the bomb then runs in.
    expect(code(await runtime.call("bomb", { kind: "pid" }))).toBe("ok");
    const [pid] = sandbox.pids();
    const outcome = await runtime.call("bomb", { kind: "buffer" });
    expect(code(outcome)).toBe("RESOURCE_EXHAUSTED");
    expect(outcome.ok ? "" : outcome.error.message).toContain("over the sandbox's maxRssMb of 256");
    expect(await gone(pid!)).toBe(true);
  });

  it("close() kills the process group and the node process inside it", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { isolation: "os", spare: false } });
    const pending = runtime.call("fault", { kind: "pending" });
    await waitFor(() =>
      sandbox.pids().some((pid) => readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("bootstrap.mjs")),
    );
    const pids = sandbox.pids();
    sandbox.close();
    expect(code(await pending)).toBe("TOOL_CRASHED");
    for (const pid of pids) expect(await gone(pid)).toBe(true);
  });

  it("a host killed with SIGKILL while its child is busy leaves no process behind (--die-with-parent)", async () => {
    const { child, exited } = await startHost(
      { root, calls: [{ name: "fault", args: { kind: "spin" } }] },
      { CAVE_ISOLATION: "os" },
    );
    // A process may end between listing and reading (the spawns on the way to the child): such a one is not it.
    const commandLine = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1");
      } catch {
        return "";
      }
    };
    await waitFor(() => descendants(child.pid!).some((pid) => commandLine(pid).includes("bootstrap.mjs")), 20_000);
    const tree = descendants(child.pid!);
    child.kill("SIGKILL");
    await exited;
    for (const pid of tree) expect(await gone(pid), `pid ${pid} outlived its host`).toBe(true);
  });

  it("receipts say which isolation a call ran under", async () => {
    const os = await sandboxed(root, { sandbox: { isolation: "os" } });
    expect((await os.runtime.call("add", { a: 1, b: 1 })).receipt.isolation).toBe("os");
    const node = await sandboxed(root, { sandbox: { isolation: "node" } });
    expect((await node.runtime.call("add", { a: 1, b: 1 })).receipt.isolation).toBe("node");
    // Refused before dispatch: no tool code ran.
    expect((await node.runtime.call("add", { a: "x", b: 1 })).receipt.isolation).toBe(null);
  });

  it('createRuntime with isolation "os" starts here', async () => {
    const runtime = await createRuntime({ root, mode: "host", isolation: "os" });
    try {
      expect((await runtime.call("add", { a: 2, b: 2 })).receipt.isolation).toBe("os");
    } finally {
      runtime.close();
    }
  });

  it("bind mounts: read-only unless asked, at the same path or another", () => {
    if (!probe.available) throw new Error(probe.reason);
    const argv = osLayerCommand(probe.layer, {
      mounts: [{ path: "/srv/a" }, { path: "/srv/b", target: "/data", write: true }],
      command: ["/bin/true"],
    });
    expect(argv.join(" ")).toContain("--ro-bind /srv/a /srv/a");
    expect(argv.join(" ")).toContain("--bind /srv/b /data");
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["/bin/true"]);
    expect(() => osLayerCommand(probe.layer, { mounts: [{ path: "relative" }], command: ["/bin/true"] })).toThrow(
      /absolute paths/,
    );
  });
});

describe("the isolation setting", () => {
  const missing = {
    available: false as const,
    reason: "bubblewrap (bwrap) is not installed: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; ...)",
  };

  it('"os" where the OS layer cannot start: SANDBOX_UNAVAILABLE, naming what to install', () => {
    expect(() => decideIsolation("os", missing)).toThrow(
      expect.objectContaining({
        code: "SANDBOX_UNAVAILABLE",
        message: expect.stringContaining("apt-get install bubblewrap"),
      }),
    );
  });

  it('"auto" there falls back to the Node layers and says so once, loudly', () => {
    const written: string[] = [];
    const stderr = { write: (text: string) => written.push(text) };
    const first = decideIsolation("auto", missing, stderr);
    decideIsolation("auto", missing, stderr);
    expect(first).toMatchObject({ isolation: "node", reason: missing.reason });
    expect(written.length).toBeLessThanOrEqual(1);
    if (written.length === 1)
      expect(written[0]).toMatch(/^cave: WARNING: the sandbox's OS layer cannot start here.*Node layers only/);
  });

  it("comes from the option, else CAVE_ISOLATION, else auto; anything else is OPTIONS_INVALID", () => {
    expect(isolationSetting(undefined, {})).toBe("auto");
    expect(isolationSetting(undefined, { CAVE_ISOLATION: "os" })).toBe("os");
    expect(isolationSetting("node", { CAVE_ISOLATION: "os" })).toBe("node");
    expect(() => isolationSetting(undefined, { CAVE_ISOLATION: "bwrap" })).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID", message: expect.stringContaining("CAVE_ISOLATION must be") }),
    );
    expect(() => isolationSetting("strict", {})).toThrow(expect.objectContaining({ code: "OPTIONS_INVALID" }));
  });

  it("says which setting blocks bubblewrap", () => {
    const host = (uid: number, settings: Record<string, string>) => ({ uid, read: (path: string) => settings[path] });
    expect(
      whyNot(
        "bwrap: No permissions to creating new namespace",
        host(1000, { "/proc/sys/kernel/unprivileged_userns_clone": "0" }),
      ),
    ).toContain("kernel.unprivileged_userns_clone is 0");
    expect(
      whyNot(
        "bwrap: setting up uid map: Permission denied",
        host(1000, { "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1" }),
      ),
    ).toContain("AppArmor");
    expect(whyNot("bwrap: Creating new namespace failed: Operation not permitted", host(0, {}))).toContain("seccomp");
  });
});
