import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeCopies } from "../support/projects.js";
import { cave, expectRelativeOnly } from "./helpers.js";
import { sealLock } from "../../src/contract/lock-seal.js";

afterAll(removeCopies);

let root: string;
beforeAll(async () => {
  root = copyProject("fixtures/basic");
  expect((await cave(["build"], root)).code).toBe(0);
});

describe("cave explain", () => {
  it("explains a read tool in plain words: effect and consequences, limits, sandbox, results, validation, source", async () => {
    const run = await cave(["explain", "lookup_policy"], root);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expectRelativeOnly(run, root);
    const out = run.stdout;
    expect(out).toContain('tool "lookup_policy": export lookupPolicy of tools/policy.ts');
    expect(out).toContain(
      "effect: read: no durable side effect. It is allowed to be run speculatively, retried on a transient failure with the same arguments, and runs in fixture mode.",
    );
    expect(out).toContain("timeout: 30000 ms (30 s)");
    expect(out).toContain("repeats: stopped");
    expect(out).toContain(
      "sandbox: required: it runs in a restricted child process with no environment variables; it can read and write no file but its own code; network access is off.",
    );
    expect(out).toContain('used by: agent "policy_desk".');
    expect(out).toContain("requested: auto (the locked plan decides");
    expect(out).toMatch(
      /input: precompiled validator \.cave\/\S+ \(sha256-[0-9a-f]{64}\); JSON Schema sha256-[0-9a-f]{64}\./,
    );
    expect(out).toMatch(/staged bundle: \.cave\/\S+ \(sha256-[0-9a-f]{64}\)/);
    expect(out).toMatch(/ {4}tools\/policy\.ts sha256-[0-9a-f]{64}/);
  });

  it("explains a write tool: never speculated, never retried, blocked in fixture mode; no output schema", async () => {
    const out = (await cave(["explain", "set_policy"], root)).stdout;
    expect(out).toContain(
      "effect: write: mutates something. It is never run speculatively, never retried, and blocked in fixture mode.",
    );
    expect(out).toContain(
      "timeout: 5000 ms (5 s); at the deadline the call fails with TIMEOUT and the tool's signal is aborted (its effect may or may not have happened).",
    );
    expect(out).toContain("output: no schema: native JSON serialisation, unvalidated.");
  });

  it("--json prints exactly the locked object", async () => {
    const run = await cave(["explain", "set_policy", "--json"], root);
    expect(run.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
    expect(JSON.parse(run.stdout)).toEqual(lock.tools.set_policy);
  });

  it("refuses an unknown tool with CAVE9040 and the closest name", async () => {
    const run = await cave(["explain", "lookup_polcy"], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error CAVE9040: cave.lock has no tool "lookup_polcy"; did you mean "lookup_policy"?\n');
    const json = await cave(["explain", "nothing_like_it", "--json"], root);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).problems[0].code).toBe("CAVE9040");
  });

  it("needs a lock (CAVE9001) and exactly one tool name", async () => {
    const empty = copyProject("fixtures/basic");
    const run = await cave(["explain", "lookup_policy"], empty);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error CAVE9001: cave.lock does not exist; run cave build first");
    expect((await cave(["explain"], root)).code).toBe(1);
    expect((await cave(["explain", "a", "b"], root)).code).toBe(1);
  });

  it("says a tool's scoped egress in plain words: each host (a wildcard as what it stands for), each secret and where it goes, never a value", async () => {
    const dir = copyProject("fixtures/diff/egress");
    const run = await cave(["explain", "send_email", "--lock", "head.lock"], dir);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("its only network is the host's egress broker (below)");
    expect(run.stdout).toContain("  egress: through the host's egress broker only");
    expect(run.stdout).toContain("    api.mail.example.com (ports 443 and 80)");
    expect(run.stdout).toContain(
      "    *.hooks.example.com:8443 (a wildcard: any single-label name under hooks.example.com, port 8443)",
    );
    expect(run.stdout).toContain(
      '  secret MAIL_API_KEY: the broker sends it as header x-api-key: "{}" on requests to api.mail.example.com only; the tool\'s code never sees the value',
    );
  });

  it("says a tool's native-addons power and its external packages in plain words: what is pinned, what the runtime checks", async () => {
    const dir = copyProject("fixtures/diff/sandbox-addons");
    const lock = JSON.parse(readFileSync(join(dir, "head.lock"), "utf8"));
    lock.externals = {
      "node_modules/better-sqlite3": {
        name: "better-sqlite3",
        version: "12.11.1",
        integrity: "sha512-better",
        optional: false,
      },
      "node_modules/bindings": { name: "bindings", version: "1.5.0", integrity: "sha512-bindings", optional: false },
    };
    lock.tools.send_email.source.externals = ["node_modules/better-sqlite3", "node_modules/bindings"];
    // Sealed again, as cave build would have written it: explain refuses an edited lock (CAVE9005).
    const reseal = (edited: typeof lock) =>
      JSON.stringify(sealLock((({ integrity: _i, toolHashes: _t, ...body }) => body)(edited)));
    writeFileSync(join(dir, "externals.lock"), reseal(lock));
    const run = await cave(["explain", "send_email", "--lock", "externals.lock"], dir);
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain(
      "  native addons: it may load native addons (sandboxProfile addons: true): machine code that Node's permission model does not see, so this tool runs only under the sandbox's OS layer (mounts and namespaces); where the OS layer is not in use, it is refused with OS_LAYER_REQUIRED.\n",
    );
    expect(out).toContain(
      "  external packages (2): not bundled; imported from the project's node_modules at run time, so their code is not in the staged bundle's hash. The lock pins each one's name, version and registry integrity (from package-lock.json):\n",
    );
    expect(out).toContain(
      "    better-sqlite3@12.11.1 at node_modules/better-sqlite3 (sha512-better)\n    bindings@1.5.0 at node_modules/bindings (sha512-bindings)\n",
    );
    expect(out).toContain(
      "the runtime refuses an installed version that differs from the lock (LOCK_MISMATCH); after cave verify --write-manifest on the deploy machine (cave.manifest.json) it also refuses any installed file that changed since.",
    );

    // A tool without either power says neither; one whose external is missing from the lock's pins says so.
    const plain = await cave(["explain", "lookup_order", "--lock", "externals.lock"], dir);
    expect(plain.stdout).not.toMatch(/native addons|external packages/);
    lock.tools.lookup_order.source.externals = ["node_modules/unpinned"];
    writeFileSync(join(dir, "unpinned.lock"), reseal(lock));
    expect((await cave(["explain", "lookup_order", "--lock", "unpinned.lock"], dir)).stdout).toContain(
      "    node_modules/unpinned: not pinned by this lock (the runtime refuses the tool: LOCK_INVALID)\n",
    );
  });
});
