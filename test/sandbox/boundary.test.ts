// The sandbox-boundary issue's weaknesses 1, 2, 5 and 6, each tried as an attacker would, on both paths:
// the Node layers only (isolation "node") and under the OS layer (isolation "os"). A Unix-domain canary and
// the TCP/UDP canary prove that nothing arrives; the build folder is checked for socket inodes.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeCopies } from "../support/projects.js";
import { build } from "../../compiler/build.js";
import { startCanary, type Canary } from "./support/canary.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, code, sandboxed } from "./support/runtime.js";

let root: string;
let canary: Canary;
let unix: { server: Server; path: string; connections: number };
beforeAll(async () => {
  root = await builtProject("sandbox");
  canary = await startCanary();
  // A host Unix-domain socket, as docker's or a database's would be.
  const dir = join(root, ".host-sockets");
  mkdirSync(dir);
  unix = {
    server: createServer((socket) => {
      unix.connections += 1;
      socket.destroy();
    }),
    path: join(dir, "service.sock"),
    connections: 0,
  };
  await new Promise<void>((resolve) => unix.server.listen(unix.path, resolve));
});
afterAll(async () => {
  closeSandboxes();
  await canary.close();
  await new Promise((resolve) => unix.server.close(resolve));
  removeCopies();
});

const PATHS = [
  { isolation: "node" as const, skip: false },
  // Linux CI installs bubblewrap: there the OS path runs (and fails if the OS layer is missing).
  { isolation: "os" as const, skip: process.platform !== "linux" },
];

for (const path of PATHS) {
  describe.skipIf(path.skip)(`the boundary (isolation "${path.isolation}")`, () => {
    const call = async (args: Record<string, unknown>) => {
      const { runtime } = await sandboxed(root, { sandbox: { isolation: path.isolation } });
      return runtime.call("boundary", args);
    };

    it("weakness 1: a host Unix-domain socket is not reached through the native Pipe class", async () => {
      const outcome = await call({ how: "unix-connect", path: unix.path });
      expect(code(outcome)).toBe("NETWORK_REFUSED");
      expect(outcome.ok ? "" : outcome.error.message).toMatch(/native Pipe\.connect is denied/);
      // The host's own client still gets through, so the silence means something.
      const { connect } = await import("node:net");
      await new Promise((resolve, reject) => connect(unix.path).once("connect", resolve).once("error", reject));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unix.connections).toBe(1);
      unix.connections = 0;
    });

    it.each([
      // The TCP class is out of reach once net._createServerHandle is refused; either refusal stops the attempt.
      ["tcp-connect", /native TCP\.connect is denied|net\._createServerHandle is denied/],
      ["tcp-listen", /native TCP\.bind is denied/],
      ["udp-send", /native UDP\.bind is denied/],
      ["dns-native", /native ChannelWrap\.queryA is denied/],
    ])(
      "weakness 2: %s through a native handle is NETWORK_REFUSED and the canary sees nothing",
      async (how, message) => {
        const before = { ...canary.seen };
        const outcome = await call({ how, port: canary.port });
        expect(code(outcome)).toBe("NETWORK_REFUSED");
        expect(outcome.ok ? "" : outcome.error.message).toMatch(message);
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(canary.seen).toEqual(before);
      },
    );

    it("weakness 5: no socket inode is created in the build folder, even in fixture mode", async () => {
      const { runtime } = await sandboxed(root, { sandbox: { isolation: path.isolation }, mode: "fixture" });
      const target = join(root, ".cave", "planted.sock");
      const outcome = await runtime.call("boundary", { how: "unix-listen", path: target });
      expect(code(outcome)).toBe("NETWORK_REFUSED");
      expect(existsSync(target)).toBe(false);
      expect(readdirSync(join(root, ".cave"))).not.toContain("planted.sock");
    });

    it("weakness 5: the host's scheduling priority cannot be changed", async () => {
      const outcome = await call({ how: "set-priority" });
      expect(code(outcome)).toBe("SANDBOX_DENIED");
      expect(outcome.ok ? "" : outcome.error.message).toMatch(/os\.setPriority\(\d+\) is denied/);
    });

    it.each(["realpath", "realpath-callback"])("weakness 5: %s does not tell whether a path exists", async (how) => {
      const present = await call({ how, path: "/etc/passwd" });
      const absent = await call({ how, path: "/etc/no-such-file-here" });
      expect(code(present)).toBe("SANDBOX_DENIED");
      expect(code(absent)).toBe("SANDBOX_DENIED");
      expect(present.ok ? "" : present.error.message).toBe(absent.ok ? "" : absent.error.message);
    });
  });
}

describe("weakness 5, module resolution: an existence oracle only the OS layer closes", () => {
  it.each(PATHS.filter((path) => !path.skip))('isolation "$isolation"', async ({ isolation }) => {
    const { runtime } = await sandboxed(root, { sandbox: { isolation } });
    const present = await runtime.call("boundary", { how: "resolve", path: join(root, "tools", "basic.ts") });
    const absent = await runtime.call("boundary", { how: "resolve", path: join(root, "tools", "no-such-module.ts") });
    expect(code(absent)).toBe("TOOL_ERROR");
    // Node layers only: Node 20's module loader still tells a file that exists (docs/sandbox.md says so): the child
    // may read only its private copy, so resolving an existing project file is refused by the permission model
    // (SANDBOX_DENIED) where a missing one is not found (TOOL_ERROR). Under the OS layer the project's files are not
    // in the child's file system at all, so both read alike.
    if (isolation === "os") expect(code(present)).toBe("TOOL_ERROR");
    else if (process.versions.node.startsWith("20.")) expect(code(present)).toBe("SANDBOX_DENIED");
  });
});

describe("weakness 6: characters the permission flags interpret", () => {
  // The child reads only the runtime's private copy of its verified files (in TMPDIR), never a path under the project,
  // so a project path with such a character grants nothing by pattern: the tool runs, reading exactly its own copy.
  // The same check still refuses a copy or bootstrap path holding one (dispatcher.ts, unsafePermissionPath).
  it.each(["star*dir", "comma,dir"])(
    "a project under %s runs from the private copy, never granted as a pattern",
    async (name) => {
      const base = copyProject("test/sandbox/projects/sandbox");
      const root = join(base, name);
      mkdirSync(root);
      for (const entry of readdirSync(base))
        if (entry !== name) (await import("node:fs")).renameSync(join(base, entry), join(root, entry));
      const built = await build({ root });
      expect(built.ok).toBe(true);
      const { runtime } = await sandboxed(root, { sandbox: { isolation: "node" } });
      const outcome = await runtime.call("add", { a: 1, b: 1 });
      expect(outcome).toMatchObject({ ok: true });
    },
  );
});
