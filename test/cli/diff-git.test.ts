import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeCopies } from "../support/projects.js";
import { cave, expectRelativeOnly } from "./helpers.js";

afterAll(removeCopies);

function git(root: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Cave Test", "-c", "user.email=test@cave.invalid", "-c", "commit.gpgsign=false", ...args],
    { cwd: root, encoding: "utf8" },
  );
}

let root: string;

beforeAll(async () => {
  root = copyProject("fixtures/basic");
  writeFileSync(join(root, ".gitignore"), "node_modules\n.cave\n");
  git(root, "init", "-q", "-b", "main");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "tools without a lock");
  expect((await cave(["build"], root)).code).toBe(0);
  git(root, "add", "cave.lock");
  git(root, "commit", "-q", "-m", "lock");
  // The working tree: lookup_policy may now write.
  const file = join(root, "tools", "policy.ts");
  writeFileSync(file, readFileSync(file, "utf8").replace('effect: "read",', 'effect: "write",'));
  expect((await cave(["build"], root)).code).toBe(0);
});

describe("cave diff against git revisions", () => {
  it("cave diff main compares the lock at main with the working tree's", async () => {
    const run = await cave(["diff", "main"], root);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expectRelativeOnly(run, root);
    expect(run.stdout).toContain("cave diff: main:cave.lock → cave.lock (working tree)");
    expect(run.stdout).toContain("New powers: what the agent can do now that it could not before");
    expect(run.stdout).toContain(
      'tool "lookup_policy": effect escalated read → write (mutates something): now never run speculatively, never retried and blocked in fixture mode',
    );
    expect((await cave(["diff"], root)).stdout).toBe(run.stdout.replace("main:cave.lock", "HEAD:cave.lock"));
  });

  it("--exit-code exits 2 on changes and 0 without", async () => {
    expect((await cave(["diff", "main", "--exit-code"], root)).code).toBe(2);
    const same = await cave(["diff", "main", "HEAD", "--exit-code"], root);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("no changes");
  });

  it("a revision without a lock is an empty lock: everything is new", async () => {
    const run = await cave(["diff", "main~1", "main", "--format", "json"], root);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.base).toEqual({ integrity: null, label: "main~1:cave.lock (no lock)" });
    expect(json.changes.map((c: { kind: string; subject: { name: string } }) => `${c.kind} ${c.subject.name}`)).toEqual(
      ["agent-added policy_desk", "tool-added lookup_policy", "tool-added set_policy"],
    );
  });

  it("mixes a revision with a lock file, and in markdown leads with the new powers", async () => {
    const run = await cave(["diff", "main", "cave.lock", "--format", "markdown"], root);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("### Cave lock review");
    expect(lines.findIndex((l) => l.startsWith("#### New powers"))).toBeGreaterThan(0);
    expect(run.stdout).toContain("- **tool `lookup_policy`**: effect escalated read → write");
  });

  it("an unknown revision is CAVE9031; outside a git repository CAVE9030; both exit 1", async () => {
    const unknown = await cave(["diff", "no-such-branch"], root);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'error CAVE9031: "no-such-branch" is neither a lock file nor a git revision of this repository',
    );
    expect((await cave(["diff", "--", "-x"], root)).code).toBe(1);
    const plain = copyProject("fixtures/basic");
    const outside = await cave(["diff", "main"], plain);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain("error CAVE9030:");
    expectRelativeOnly(outside, plain);
  });

  it("refuses bad flags with the usage", async () => {
    expect((await cave(["diff", "--format", "html"], root)).code).toBe(1);
    expect((await cave(["diff", "a", "b", "c"], root)).stderr).toContain("usage: cave diff");
  });
});
