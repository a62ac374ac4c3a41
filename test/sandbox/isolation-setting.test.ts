// The one isolation setting end to end (issue 12): where it comes from (option > CAVE_ISOLATION > cave.config.json),
// "os" refusing at createRuntime() and in `cave verify` where the OS layer cannot start, "auto" falling back and
// saying so once on stderr. bwrap is made unavailable by pointing CAVE_BWRAP (or the bwrap option) at a missing file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { cave, expectRelativeOnly } from "../cli/helpers.js";
import { removeCopies } from "../support/projects.js";
import { startHost } from "./support/host-process.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes } from "./support/runtime.js";

const MISSING = "/nonexistent/cave-test/bwrap";
let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => {
  closeSandboxes();
  removeCopies();
});

function withEnv<T>(env: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  return run().finally(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

function configure(isolation: unknown): void {
  writeFileSync(join(root, "cave.config.json"), `${JSON.stringify({ isolation })}\n`);
}

describe('isolation "os" where the OS layer cannot start', () => {
  it("createRuntime() refuses with SANDBOX_UNAVAILABLE naming what to install, before any call", async () => {
    const sandbox = createSandboxDispatcher({ isolation: "os", bwrap: MISSING });
    try {
      await expect(createRuntime({ root, mode: "host", dispatchers: { required: sandbox } })).rejects.toMatchObject({
        code: "SANDBOX_UNAVAILABLE",
        message: expect.stringMatching(
          /isolation is "os" but the sandbox's OS layer cannot start here: the bwrap option names \/nonexistent\/cave-test\/bwrap, which does not exist: install bubblewrap \(Debian\/Ubuntu: apt-get install bubblewrap/,
        ),
      });
      expect(sandbox.stats()).toMatchObject({ spawned: 0 });
    } finally {
      sandbox.close();
    }
  });

  it("the runtime's own sandbox refuses the same way with CAVE_BWRAP pointing at a missing bwrap", async () => {
    await withEnv({ CAVE_BWRAP: MISSING, CAVE_ISOLATION: undefined }, async () => {
      await expect(createRuntime({ root, mode: "host", isolation: "os" })).rejects.toMatchObject({
        code: "SANDBOX_UNAVAILABLE",
        message: expect.stringContaining("CAVE_BWRAP names /nonexistent/cave-test/bwrap"),
      });
    });
  });

  it("cave verify reports it (and passes where it can start, or under auto)", async () => {
    const refused = await cave(["verify", "--json"], root, { CAVE_ISOLATION: "os", CAVE_BWRAP: MISSING });
    expect(refused.code).toBe(1);
    expectRelativeOnly(refused, root);
    expect(JSON.parse(refused.stdout).problems).toEqual([
      {
        code: "SANDBOX_UNAVAILABLE",
        message: expect.stringContaining(
          "CAVE_BWRAP names /nonexistent/cave-test/bwrap, which does not exist: install bubblewrap",
        ),
      },
    ]);
    const human = await cave(["verify"], root, { CAVE_ISOLATION: "os", CAVE_BWRAP: MISSING });
    expect(human.stderr).toMatch(/^error SANDBOX_UNAVAILABLE: isolation is "os" but/m);
    expect((await cave(["verify"], root, { CAVE_ISOLATION: "auto", CAVE_BWRAP: MISSING })).code).toBe(0);
    if (process.platform === "linux") expect((await cave(["verify"], root, { CAVE_ISOLATION: "os" })).code).toBe(0);
  });

  it("cave verify reads isolation from cave.config.json, and CAVE_ISOLATION wins over it", async () => {
    configure("os");
    try {
      const refused = await cave(["verify", "--json"], root, { CAVE_BWRAP: MISSING });
      expect(JSON.parse(refused.stdout).problems).toEqual([
        { code: "SANDBOX_UNAVAILABLE", message: expect.any(String) },
      ]);
      expect((await cave(["verify"], root, { CAVE_BWRAP: MISSING, CAVE_ISOLATION: "auto" })).code).toBe(0);
      configure("strict");
      const invalid = await cave(["verify", "--json"], root, {});
      // The configuration is read (and refused) as cave build reads it, before the lock.
      expect(JSON.parse(invalid.stdout).problems).toEqual([
        { code: "CAVE2004", message: 'cave.config.json: isolation must be "os", "auto" or "node" (got "strict")' },
      ]);
    } finally {
      configure("auto");
    }
  });
});

describe("where the setting comes from", () => {
  it("createRuntime(): the option, else CAVE_ISOLATION, else cave.config.json", async () => {
    configure("os");
    try {
      await withEnv({ CAVE_BWRAP: MISSING, CAVE_ISOLATION: undefined }, async () => {
        // From the configuration: refused.
        await expect(createRuntime({ root, mode: "host" })).rejects.toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
        // The environment wins over the configuration, the option over both.
        await withEnv({ CAVE_ISOLATION: "node" }, async () => {
          const runtime = await createRuntime({ root, mode: "host" });
          expect((await runtime.call("add", { a: 1, b: 2 })).receipt.isolation).toBe("node");
          runtime.close();
          await expect(createRuntime({ root, mode: "host", isolation: "os" })).rejects.toMatchObject({
            code: "SANDBOX_UNAVAILABLE",
          });
        });
      });
      configure(7);
      await withEnv({ CAVE_ISOLATION: undefined }, async () => {
        await expect(createRuntime({ root, mode: "host" })).rejects.toMatchObject({
          code: "OPTIONS_INVALID",
          message: 'isolation in cave.config.json must be "os", "auto" or "node" (got 7)',
        });
      });
    } finally {
      configure("auto");
    }
  });

  it("cave build refuses an isolation value it does not know (CAVE2004), naming the values", async () => {
    configure("bwrap");
    try {
      const run = await cave(["build"], root, {});
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("CAVE2004");
      expect(run.stderr).toContain('isolation must be "os", "auto" or "node" (got "bwrap")');
    } finally {
      configure("auto");
    }
  });
});

describe('isolation "auto" where the OS layer cannot start', () => {
  it("runs with the Node layers, says so once on stderr, and every receipt says node", async () => {
    const host = await startHost(
      {
        root,
        calls: [
          { name: "add", args: { a: 1, b: 1 } },
          { name: "add", args: { a: 2, b: 2 } },
        ],
      },
      { CAVE_BWRAP: MISSING, CAVE_ISOLATION: "auto" },
    );
    expect(await host.exited).toEqual({ code: 0, signal: null });
    const outcomes = host.lines.map((line) => JSON.parse(line) as { ok?: boolean; isolation?: string });
    expect(outcomes.filter((o) => o.ok === true).map((o) => o.isolation)).toEqual(["node", "node"]);
    const warnings = host
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("cave: WARNING"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /the sandbox's OS layer cannot start here, so sandboxed tools run with the Node layers only \(isolation "auto"\): CAVE_BWRAP names \/nonexistent\/cave-test\/bwrap, which does not exist/,
    );
  });
});
