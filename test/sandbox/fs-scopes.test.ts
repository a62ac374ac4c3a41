// Filesystem scopes (issue 14), tried as a tool would: reads and writes inside and outside each scope, `..` and
// symbolic links that leave a scope, a scope replaced by a link after the build, an atomic write-then-rename, a named
// runtime setting, and the same profile without the OS layer (refused: one rule, runtime/sandbox/os-only.ts).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { cave, expectRelativeOnly } from "../cli/helpers.js";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, code, sandboxed } from "./support/runtime.js";

const linux = process.platform === "linux";
let root: string;
// Made when the file loads: the test tables below name paths in it.
const outside = mkdtempSync(join(tmpdir(), "cave-outside-"));
let exportsDir: string;
const savedExports = process.env.CAVE_TEST_EXPORTS;
beforeAll(async () => {
  root = await builtProject("fs-scopes");
  writeFileSync(join(outside, "victim.txt"), "untouched");
  exportsDir = mkdtempSync(join(tmpdir(), "cave-exports-"));
  process.env.CAVE_TEST_EXPORTS = exportsDir;
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
  rmSync(outside, { recursive: true, force: true });
  rmSync(exportsDir, { recursive: true, force: true });
  if (savedExports === undefined) delete process.env.CAVE_TEST_EXPORTS;
  else process.env.CAVE_TEST_EXPORTS = savedExports;
});

const message = (outcome: { ok: boolean; error?: { message: string } }) => (outcome.ok ? "" : outcome.error!.message);

describe.skipIf(!linux)("filesystem scopes under the OS layer", () => {
  const files = async (args: Record<string, unknown>, tool = "order_files") =>
    (await sandboxed(root, { sandbox: { isolation: "os" } })).runtime.call(tool, args);

  it("createRuntime creates a missing write scope at deploy", async () => {
    rmSync(join(root, "data"), { recursive: true, force: true });
    await sandboxed(root, { sandbox: { isolation: "os" } });
    expect(existsSync(join(root, "data", "orders"))).toBe(true);
    expect(existsSync(join(exportsDir, "out"))).toBe(true);
  });

  it("writes and reads inside the write scope; the file is on the host", async () => {
    const wrote = await files({ action: "write", path: "data/orders/o-1.json", text: '{"id":"o-1"}' });
    expect(wrote).toMatchObject({ ok: true });
    expect(readFileSync(join(root, "data/orders/o-1.json"), "utf8")).toBe('{"id":"o-1"}');
    expect(await files({ action: "read", path: "data/orders/o-1.json" })).toMatchObject({
      ok: true,
      content: { text: '{"id":"o-1"}' },
    });
    expect(await files({ action: "mkdir", path: "data/orders/2026/12" })).toMatchObject({ ok: true });
  });

  it("reads inside the read scopes: a folder, and the files a glob matches", async () => {
    expect(await files({ action: "read", path: "config/prices.json" })).toMatchObject({
      ok: true,
      content: { text: '{"currency":"EUR"}\n' },
    });
    expect(await files({ action: "read", path: "notes/a.txt" })).toMatchObject({
      ok: true,
      content: { text: "first note\n" },
    });
  });

  it.each([
    ["a read scope", "config/prices.json"],
    ["beside the write scope", "data/elsewhere.txt"],
    ["the project's .env", ".env"],
    ["the tool's source", "tools/files.ts"],
    ["`..` out of the write scope", "data/orders/../../escaped.txt"],
    ["outside the project", join(outside, "victim.txt")],
  ])("a write to %s is refused and nothing is written", async (_, path) => {
    const before = existsSync(resolve(root, path)) ? readFileSync(resolve(root, path), "utf8") : null;
    const outcome = await files({ action: "write", path, text: "overwritten" });
    expect(code(outcome)).toBe("SANDBOX_DENIED");
    expect(message(outcome)).toMatch(/ERR_ACCESS_DENIED|FileSystemWrite/);
    expect(existsSync(resolve(root, path)) ? readFileSync(resolve(root, path), "utf8") : null).toBe(before);
    expect(existsSync(join(root, "escaped.txt"))).toBe(false);
    expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("untouched");
  });

  it.each([
    ["a file the glob does not match", "notes/b.md"],
    ["the project's .env", ".env"],
    ["`..` out of a read scope", "config/../.env"],
    ["a file outside the project", join(outside, "victim.txt")],
  ])("a read of %s is refused", async (_, path) => {
    const outcome = await files({ action: "read", path });
    expect(code(outcome)).toBe("SANDBOX_DENIED");
  });

  it("a symbolic link inside the write scope leads nowhere: its target is not in the child's file system", async () => {
    symlinkSync(join(outside, "victim.txt"), join(root, "data/orders/to-victim"));
    symlinkSync(join(root, ".env"), join(root, "data/orders/to-env"));
    try {
      // The permission model alone would let both through (the path is inside the scope); the OS layer does not.
      const read = await files({ action: "read", path: "data/orders/to-env" });
      expect(read.ok).toBe(false);
      expect(message(read)).not.toContain("SECRET");
      const wrote = await files({ action: "write", path: "data/orders/to-victim", text: "overwritten" });
      expect(wrote.ok).toBe(false);
      expect(readFileSync(join(outside, "victim.txt"), "utf8")).toBe("untouched");
      // A link the tool makes itself is refused by the permission model.
      const made = await files({ action: "symlink", path: "data/orders/own-link", text: "/etc/passwd" });
      expect(code(made)).toBe("SANDBOX_DENIED");
    } finally {
      rmSync(join(root, "data/orders/to-victim"));
      rmSync(join(root, "data/orders/to-env"));
    }
  });

  it("an atomic write-then-rename inside the write scope works", async () => {
    mkdirSync(join(root, "data/orders"), { recursive: true });
    writeFileSync(join(root, "data/orders/state.json"), '{"v":1}');
    const outcome = await files({ action: "atomic-write", path: "data/orders/state.json", text: '{"v":2}' });
    expect(outcome).toMatchObject({ ok: true, content: { text: '{"v":2}' } });
    expect(readFileSync(join(root, "data/orders/state.json"), "utf8")).toBe('{"v":2}');
  });

  it("a named runtime setting: the tool finds its directory under the setting's name and writes below it", async () => {
    const outcome = await files({ action: "write", path: "$EXPORTS/out/report.csv", text: "a,b" }, "export_files");
    expect(outcome).toMatchObject({ ok: true, content: { base: exportsDir } });
    expect(readFileSync(join(exportsDir, "out/report.csv"), "utf8")).toBe("a,b");
    const above = await files({ action: "write", path: "$EXPORTS/above.csv", text: "a,b" }, "export_files");
    expect(code(above)).toBe("SANDBOX_DENIED");
    expect(existsSync(join(exportsDir, "above.csv"))).toBe(false);
  });

  it("a tool without scopes still writes nothing", async () => {
    const outcome = await files({ action: "write", path: "data/orders/no-scope.txt", text: "x" }, "no_scope");
    expect(code(outcome)).toBe("SANDBOX_DENIED");
    expect(existsSync(join(root, "data/orders/no-scope.txt"))).toBe(false);
  });

  it("a scope replaced by a symbolic link after the build is refused, at createRuntime and at the next child's start", async () => {
    // No spare: a spare started before the swap holds the directory it checked, bound by its inode; the next child is new.
    const { runtime } = await sandboxed(root, { sandbox: { isolation: "os", spare: false } });
    expect(await runtime.call("order_files", { action: "list", path: "data/orders" })).toMatchObject({ ok: true });
    const target = join(outside, "orders-elsewhere");
    mkdirSync(target);
    renameSync(join(root, "data/orders"), join(root, "data/orders-real"));
    symlinkSync(target, join(root, "data/orders"));
    try {
      await expect(sandboxed(root, { sandbox: { isolation: "os" } })).rejects.toMatchObject({
        code: "FS_SCOPE_UNAVAILABLE",
        message: expect.stringMatching(
          /tool "order_files": its write scope "data\/orders" passes through a symbolic link \(data\/orders\)/,
        ),
      });
      // The runtime made before: a new run needs a new child, which is refused, never started on the link's target.
      const outcome = await runtime
        .startRun()
        .call("order_files", { action: "write", path: "data/orders/x.txt", text: "x" });
      expect(code(outcome)).toBe("FS_SCOPE_UNAVAILABLE");
      expect(existsSync(join(target, "x.txt"))).toBe(false);
    } finally {
      rmSync(join(root, "data/orders"));
      renameSync(join(root, "data/orders-real"), join(root, "data/orders"));
    }
  });

  it("a named setting that is not set refuses createRuntime, naming it", async () => {
    delete process.env.CAVE_TEST_EXPORTS;
    try {
      await expect(sandboxed(root, { sandbox: { isolation: "os" } })).rejects.toMatchObject({
        code: "FS_SCOPE_UNAVAILABLE",
        message:
          'tool "export_files": its write scope "$CAVE_TEST_EXPORTS/out": the runtime setting CAVE_TEST_EXPORTS is not set; give the directory in the environment variable CAVE_TEST_EXPORTS (an absolute path) where the runtime runs',
      });
    } finally {
      process.env.CAVE_TEST_EXPORTS = exportsDir;
    }
  });
});

describe("the same profile without the OS layer", () => {
  it('isolation "node": createRuntime refuses with OS_LAYER_REQUIRED naming each tool and its powers', async () => {
    await expect(createRuntime({ root, mode: "host", isolation: "node" })).rejects.toMatchObject({
      code: "OS_LAYER_REQUIRED",
      message: expect.stringContaining(
        'tool "order_files" is locked with powers only the sandbox\'s OS layer can enforce (write access to data/orders, read access to config, read access to notes/*.txt), and the OS layer is not in use here (isolation is "node": the Node layers only)',
      ),
    });
  });

  it('isolation "auto" on a host without bubblewrap refuses the same way', async () => {
    const sandbox = createSandboxDispatcher({ isolation: "auto", bwrap: "/nonexistent/cave-test/bwrap" });
    try {
      await expect(createRuntime({ root, mode: "host", dispatchers: { required: sandbox } })).rejects.toMatchObject({
        code: "OS_LAYER_REQUIRED",
        message: expect.stringContaining("the bwrap option names /nonexistent/cave-test/bwrap, which does not exist"),
      });
    } finally {
      sandbox.close();
    }
  });

  it("a dispatcher used without createRuntime's check refuses at the call, and starts nothing", async () => {
    const sandbox = createSandboxDispatcher({ isolation: "node" });
    try {
      const runtime = await createRuntime({
        root,
        mode: "host",
        dispatchers: {
          required: {
            dispatch: (request) => sandbox.dispatch(request),
            validateOpaque: (request) => sandbox.validateOpaque(request),
          },
        },
      });
      const outcome = await runtime.call("order_files", { action: "write", path: "data/orders/n.txt", text: "x" });
      expect(code(outcome)).toBe("OS_LAYER_REQUIRED");
      expect(sandbox.stats().spawned).toBe(0);
      expect(existsSync(join(root, "data/orders/n.txt"))).toBe(false);
      // A tool without such powers still runs there.
      expect(code(await runtime.call("no_scope", { action: "list", path: "." }))).toBe("SANDBOX_DENIED");
    } finally {
      sandbox.close();
    }
  });
});

describe("in review and at deploy", () => {
  it("cave explain states the scopes in plain words", async () => {
    const run = await cave(["explain", "order_files"], root);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "files: it writes data/orders (in the project) and reads config (in the project), the files matching notes/*.txt (in the project), and nothing else (enforced by the sandbox's OS layer: where it is not in use, the tool is refused)",
    );
    expect((await cave(["explain", "export_files"], root)).stdout).toContain(
      "files: it writes out under the directory the deploy names in $CAVE_TEST_EXPORTS",
    );
  });

  it("cave verify: without the OS layer each tool with scopes is OS_LAYER_REQUIRED; the rest of the lock is fine", async () => {
    const run = await cave(["verify", "--json"], root, { CAVE_ISOLATION: "node", CAVE_TEST_EXPORTS: exportsDir });
    expect(run.code).toBe(1);
    expectRelativeOnly(run, root);
    const problems = (JSON.parse(run.stdout) as { problems: Array<{ code: string; message: string }> }).problems;
    expect(problems.map((p) => p.code)).toEqual(["OS_LAYER_REQUIRED", "OS_LAYER_REQUIRED"]);
    expect(problems[0]!.message).toMatch(
      /^tool "export_files" is locked with powers only the sandbox's OS layer can enforce \(write access to \$CAVE_TEST_EXPORTS\/out\)/,
    );
  });

  it.skipIf(!linux)(
    "cave verify: a named setting that is not set, and a write scope that cannot be a directory, are FS_SCOPE_UNAVAILABLE; nothing is created",
    async () => {
      const fresh = mkdtempSync(join(tmpdir(), "cave-exports-"));
      try {
        rmSync(join(root, "data"), { recursive: true, force: true });
        const unset = await cave(["verify", "--json"], root, { CAVE_ISOLATION: "os" });
        expect(JSON.parse(unset.stdout).problems).toEqual([
          {
            code: "FS_SCOPE_UNAVAILABLE",
            message: expect.stringContaining(
              'tool "export_files": its write scope "$CAVE_TEST_EXPORTS/out": the runtime setting CAVE_TEST_EXPORTS is not set',
            ),
          },
        ]);
        writeFileSync(join(fresh, "out"), "a file where the scope's directory belongs");
        const file = await cave(["verify", "--json"], root, { CAVE_ISOLATION: "os", CAVE_TEST_EXPORTS: fresh });
        expect(JSON.parse(file.stdout).problems).toEqual([
          {
            code: "FS_SCOPE_UNAVAILABLE",
            message:
              'tool "export_files": its write scope "$CAVE_TEST_EXPORTS/out" is not a directory; write scopes are directories (a single file cannot be mounted read-write safely)',
          },
        ]);
        rmSync(join(fresh, "out"));
        const ok = await cave(["verify"], root, { CAVE_ISOLATION: "os", CAVE_TEST_EXPORTS: fresh });
        expect(ok.code).toBe(0);
        // verify checks that write scopes can be created; it creates nothing.
        expect(existsSync(join(root, "data"))).toBe(false);
        expect(existsSync(join(fresh, "out"))).toBe(false);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    },
  );
});
