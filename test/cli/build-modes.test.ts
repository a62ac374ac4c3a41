import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeCopies } from "../support/projects.js";
import { cave, expectRelativeOnly, snapshot } from "./helpers.js";

afterAll(removeCopies);

/** Edits the fixture's set_policy timeout, which changes the lock. */
function changeTimeout(root: string): void {
  const file = join(root, "tools", "policy.ts");
  const text = readFileSync(file, "utf8");
  expect(text).toContain("timeout: 5_000,");
  writeFileSync(file, text.replace("timeout: 5_000,", "timeout: 6_000,"));
}

function breakTimeout(root: string): void {
  const file = join(root, "tools", "policy.ts");
  writeFileSync(file, readFileSync(file, "utf8").replace("timeout: 5_000,", "timeout: Date.now(),"));
}

describe("cave build modes", () => {
  let built: string;
  let lockBefore: string;
  let folderBefore: Record<string, string>;

  beforeAll(async () => {
    built = copyProject("fixtures/basic");
    const run = await cave(["build"], built);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^cave build: locked 2 tools in cave\.lock \(sha256-[0-9a-f]{12}…\), \d+ files in \.cave\//,
    );
    expectRelativeOnly(run, built);
    lockBefore = readFileSync(join(built, "cave.lock"), "utf8");
    folderBefore = snapshot(join(built, ".cave"));
  });

  it("--check exits 0 and writes nothing when the committed lock is identical", async () => {
    rmSync(join(built, ".cave"), { recursive: true });
    const run = await cave(["build", "--check"], built);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toBe("cave build --check: cave.lock is up to date (2 tools)\n");
    expect(existsSync(join(built, ".cave"))).toBe(false);
    expect(readFileSync(join(built, "cave.lock"), "utf8")).toBe(lockBefore);
  });

  it("--frozen writes the build folder matching the unchanged lock, and verify agrees", async () => {
    const run = await cave(["build", "--frozen"], built);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(
      /^cave build --frozen: cave\.lock is up to date \(2 tools\); wrote \d+ files in \.cave\/ matching it\n$/,
    );
    expect(snapshot(join(built, ".cave"))).toEqual(folderBefore);
    expect(readFileSync(join(built, "cave.lock"), "utf8")).toBe(lockBefore);
    expect((await cave(["verify"], built)).code).toBe(0);
  });

  it("--check exits 2 on a changed project, prints the review diff, and writes nothing", async () => {
    const root = copyProject("fixtures/basic");
    expect((await cave(["build"], root)).code).toBe(0);
    const lock = readFileSync(join(root, "cave.lock"), "utf8");
    const folder = snapshot(join(root, ".cave"));
    changeTimeout(root);
    const run = await cave(["build", "--check"], root);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("cave diff: committed cave.lock → this build");
    expect(run.stdout).toContain('tool "set_policy": timeout 5000 ms (5 s) → 6000 ms (6 s)');
    expect(run.stderr).toContain(
      "error CAVE9020: cave.lock is out of date: 2 changes: 0 new powers, 0 breaking, 0 to review, 2 other; run cave build, review cave diff, and commit the lock.",
    );
    expectRelativeOnly(run, root);
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(lock);
    expect(snapshot(join(root, ".cave"))).toEqual(folder);

    const json = await cave(["build", "--check", "--json"], root);
    expect(json.code).toBe(2);
    expect(json.stderr).toBe("");
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({
      ok: false,
      exitCode: 2,
      status: "changed",
      mode: "check",
      written: false,
      lock: "cave.lock",
    });
    // lookup_policy shares the edited module: its implementation changed, its contract did not.
    expect(
      parsed.diff.changes.map((c: { kind: string; subject: { name: string } }) => `${c.kind} ${c.subject.name}`),
    ).toEqual(["implementation lookup_policy", "timeout set_policy"]);
    expect(Object.keys(parsed)).toEqual([...Object.keys(parsed)].sort());

    const github = await cave(["build", "--check", "--format", "github"], root);
    expect(github.code).toBe(2);
    expect(github.stdout.split("\n")[0]).toBe(
      "::error file=cave.lock,title=CAVE9020::cave.lock is out of date: 2 changes: 0 new powers, 0 breaking, 0 to review, 2 other; run cave build, review cave diff, and commit the lock",
    );

    // --frozen refuses the change: neither the lock nor the build folder is touched.
    const frozen = await cave(["build", "--frozen"], root);
    expect(frozen.code).toBe(2);
    expect(frozen.stderr).toContain("--frozen refuses to change it, so nothing was written");
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(lock);
    expect(snapshot(join(root, ".cave"))).toEqual(folder);

    // With CI set, a plain build is frozen; --write opts out; CI=false is not CI.
    const ci = await cave(["build"], root, { CI: "true" });
    expect(ci.code).toBe(2);
    expect(ci.stderr).toContain("CI is set, so cave build runs as --frozen; pass --write to update the lock");
    expect(readFileSync(join(root, "cave.lock"), "utf8")).toBe(lock);
    const ciJson = JSON.parse((await cave(["build", "--json"], root, { CI: "1" })).stdout);
    expect(ciJson).toMatchObject({ mode: "frozen", frozenByCI: true, exitCode: 2 });
    const notCi = JSON.parse((await cave(["build", "--check", "--json"], root, { CI: "false" })).stdout);
    expect(notCi).toMatchObject({ mode: "check", frozenByCI: false });

    const write = await cave(["build", "--write"], root, { CI: "true" });
    expect(write.code).toBe(0);
    expect(write.stdout).toContain("2 changes: 0 new powers, 0 breaking, 0 to review, 2 other (review with cave diff)");
    expect(readFileSync(join(root, "cave.lock"), "utf8")).not.toBe(lock);
    expect((await cave(["build", "--check"], root, { CI: "true" })).code).toBe(0);
    expect((await cave(["build"], root, { CI: "true" })).code).toBe(0);
    expect((await cave(["verify"], root)).code).toBe(0);
  });

  it("--check without a committed lock exits 2 and lists every tool as new", async () => {
    const root = copyProject("fixtures/basic");
    const run = await cave(["build", "--check"], root);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("cave diff: cave.lock (none committed) → this build");
    expect(run.stdout).toContain('tool "set_policy": new tool: effect write (mutates something)');
    expect(run.stdout).toContain('agent "policy_desk": new agent');
    expect(existsSync(join(root, "cave.lock"))).toBe(false);
    expect(existsSync(join(root, ".cave"))).toBe(false);
    expect((await cave(["build", "--frozen"], root)).code).toBe(2);
    expect(existsSync(join(root, ".cave"))).toBe(false);
  });

  it("exits 1 on build errors in every mode, with GitHub annotations on the file and line", async () => {
    const root = copyProject("fixtures/basic");
    breakTimeout(root);
    for (const mode of [[], ["--check"], ["--frozen"], ["--write"]]) {
      const run = await cave(["build", ...mode], root);
      expect(run.code, mode.join(" ")).toBe(1);
      expect(run.stderr).toContain("nothing was written");
      expectRelativeOnly(run, root);
    }
    const github = await cave(["build", "--check", "--format", "github"], root);
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(/^::error file=tools\/policy\.ts,line=\d+,col=\d+,title=CAVE\d{4}::.*%0Ahint: /m);
    const json = JSON.parse((await cave(["build", "--check", "--json"], root)).stdout);
    expect(json).toMatchObject({ ok: false, exitCode: 1, status: "failed" });
    expect(json.diagnostics.length).toBeGreaterThan(0);
    expect(existsSync(join(root, "cave.lock"))).toBe(false);
  });

  it("refuses conflicting or unknown flags with exit 1 and the usage", async () => {
    for (const argv of [
      ["--check", "--frozen"],
      ["--frozen", "--write"],
      ["--format", "xml"],
      ["--json", "--format", "github"],
      ["--chek"],
    ]) {
      const run = await cave(["build", ...argv], built);
      expect(run.code, argv.join(" ")).toBe(1);
      expect(run.stderr).toContain("usage: cave build");
    }
  });
});
