// Adversarial table rows 13, 14, 15 and 18 (../shared/sandbox.md): the host's signals, environment,
// files and file descriptors stay out of the tool's reach.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import type { CallOutcome } from "../../runtime/index.js";
import { sandboxEnv } from "../../runtime/sandbox/env.js";
import { tool } from "../../src/index.js";
import { copyProject, removeCopies } from "../support/projects.js";
import { startCanary, type Canary } from "./support/canary.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

function error(outcome: CallOutcome): { code: string; message: string } {
  expect(outcome.ok).toBe(false);
  return outcome.ok ? { code: "ok", message: "" } : outcome.error;
}

describe("row 13: signalling the host", () => {
  it.each(["kill-ppid", "_kill-ppid", "kill-group", "kill-negative-ppid"])(
    "%s: the host receives nothing; the call is SANDBOX_DENIED (ERR_SANDBOX_DENIED)",
    async (how) => {
      let received = 0;
      const onSignal = () => (received += 1);
      process.on("SIGTERM", onSignal);
      try {
        const { runtime } = await sandboxed(root);
        const { code, message } = error(await runtime.call("signal_host", { how }));
        expect(code).toBe("SANDBOX_DENIED");
        expect(message).toContain("ERR_SANDBOX_DENIED");
        expect(message).toMatch(/process\._?kill\(/);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(received).toBe(0);
      } finally {
        process.off("SIGTERM", onSignal);
      }
    },
  );
});

describe("row 14: secrets in the host's environment", () => {
  const secrets = {
    AWS_SECRET_ACCESS_KEY: "aws-secret-row14",
    DATABASE_URL: "postgres://user:pw@db/row14",
    NPM_TOKEN: "npm-token-row14",
    LOG_LEVEL: "debug",
  };
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [name, value] of Object.entries(secrets)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("the tool sees only its allow-listed name; the secrets are undefined and /proc/self/environ is refused", async () => {
    const { runtime } = await sandboxed(root);
    const outcome = await runtime.call("read_env", {});
    expect(outcome).toMatchObject({
      ok: true,
      content: {
        AWS_SECRET_ACCESS_KEY: null,
        DATABASE_URL: null,
        NPM_TOKEN: null,
        LOG_LEVEL: "debug",
        names: ["LOG_LEVEL"],
        environ: "refused: ERR_ACCESS_DENIED",
      },
    });
    expect(JSON.stringify(outcome)).not.toMatch(/row14/);
  });

  it("a tool declaring such a name fails registration (CAVE1009) and the build", async () => {
    expect(() =>
      tool({
        name: "leaky",
        description: "Wants a secret.",
        effect: "read",
        sandboxProfile: { env: ["AWS_SECRET_ACCESS_KEY"] },
        execute: () => null,
      }),
    ).toThrow(expect.objectContaining({ code: "CAVE1009", message: expect.stringContaining("AWS_SECRET_ACCESS_KEY") }));
    const project = copyProject("test/sandbox/projects/sandbox");
    writeFileSync(
      join(project, "tools", "leaky.ts"),
      'import { tool } from "cave";\nexport const leaky = tool({ name: "leaky", description: "Wants a secret.", effect: "read", sandboxProfile: { env: ["DATABASE_URL"] }, execute: () => null });\n',
    );
    const result = await build({ root: project, write: false });
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: "CAVE1009", file: "tools/leaky.ts" }));
  });

  it("even a lock that listed a denied name would not pass it on", () => {
    expect(
      sandboxEnv(["DATABASE_URL", "NPM_TOKEN", "LOG_LEVEL", "UNSET_NAME"], {
        DATABASE_URL: "x",
        NPM_TOKEN: "y",
        LOG_LEVEL: "info",
      }),
    ).toEqual({ LOG_LEVEL: "info" });
  });
});

describe("row 15: the file system", () => {
  it.each([".env", "cave.lock", "/etc/passwd"])("reading %s is refused with ERR_ACCESS_DENIED", async (path) => {
    writeFileSync(join(root, ".env"), "API_SECRET=row15-dotenv-secret\n");
    const { runtime } = await sandboxed(root);
    const { code, message } = error(await runtime.call("read_file", { path }));
    expect(code).toBe("SANDBOX_DENIED");
    expect(message).toContain("ERR_ACCESS_DENIED: Node's permission model refused FileSystemRead");
    expect(message).not.toContain(root);
  });

  it.each(["host", "fixture"] as const)(
    "writing anywhere is refused in %s mode, and no file is created",
    async (mode) => {
      const dir = mkdtempSync(join(tmpdir(), "cave-write-"));
      const { runtime } = await sandboxed(root, { mode });
      for (const path of [join(dir, "out.txt"), join(root, "out.txt"), "relative.txt"]) {
        const { code, message } = error(await runtime.call("lying_writer", { path }));
        expect(code).toBe("SANDBOX_DENIED");
        expect(message).toContain("FileSystemWrite");
      }
      expect(existsSync(join(dir, "out.txt"))).toBe(false);
      expect(existsSync(join(root, "out.txt"))).toBe(false);
      expect(existsSync(join(root, "relative.txt"))).toBe(false);
      rmSync(dir, { recursive: true, force: true });
    },
  );

  it("staging rejects a symlink that leads out of the project (CAVE4002), so its target never reaches a bundle", async () => {
    const outside = mkdtempSync(join(tmpdir(), "cave-outside-"));
    writeFileSync(join(outside, "secret.ts"), 'export const secret = "row15-outside-file";\n');
    const project = copyProject("test/sandbox/projects/sandbox");
    symlinkSync(join(outside, "secret.ts"), join(project, "tools", "secret-link.ts"));
    writeFileSync(
      join(project, "tools", "uses-link.ts"),
      'import { tool } from "cave";\nimport { secret } from "./secret-link.js";\nexport const usesLink = tool({ name: "uses_link", description: "Reads a linked file.", effect: "read", execute: () => ({ secret }) });\n',
    );
    const result = await build({ root: project, write: false });
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "CAVE4002", file: "tools/uses-link.ts" }),
    );
    rmSync(outside, { recursive: true, force: true });
  });

  it("a staged bundle replaced by a symlink pointing out is refused before any process starts (LOCK_MISMATCH)", async () => {
    const project = await builtProject("sandbox");
    const bundle = join(project, ".cave", "bundles", "tools", "files.mjs");
    const copy = join(mkdtempSync(join(tmpdir(), "cave-bundle-")), "files.mjs");
    writeFileSync(copy, readFileSync(bundle));
    unlinkSync(bundle);
    symlinkSync(copy, bundle);
    const { runtime, sandbox } = await sandboxed(project);
    const { code, message } = error(await runtime.call("read_file", { path: "/etc/hostname" }));
    expect(code).toBe("LOCK_MISMATCH");
    expect(message).toContain('tool "read_file": its staged bundle .cave/bundles/tools/files.mjs is a symbolic link');
    expect(sandbox.stats().spawned).toBe(0);
  });
});

describe("row 18: the host's file descriptors", () => {
  let canary: Canary;
  let held: Socket;
  beforeAll(async () => {
    canary = await startCanary();
    held = connect(canary.port, "127.0.0.1");
    await new Promise((resolve) => held.once("connect", resolve));
  });
  afterAll(async () => {
    held.destroy();
    await canary.close();
  });

  it("writing to fds 3-1023 and wrapping them as sockets reaches nothing of the host's; the canary's listener still accepts", async () => {
    const { runtime } = await sandboxed(root);
    const outcome = await runtime.call("host_fds", {});
    // fd 3 is the child's own channel to the host: writing garbage there is a protocol error.
    expect(["PROTOCOL_ERROR", "TOOL_CRASHED"]).toContain(outcome.ok ? "ok" : outcome.error.code);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(canary.seen).toEqual({ connections: 1, bytes: 0, packets: 0 });
    const again = connect(canary.port, "127.0.0.1");
    await new Promise((resolve, reject) => again.once("connect", resolve).once("error", reject));
    again.destroy();
    expect(canary.seen.connections).toBe(2);
    expect(await runtime.call("add", { a: 1, b: 1 })).toMatchObject({ ok: true });
  });
});
