import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/golden.js";
import { cave } from "./helpers.js";

// Locks written by cave build at lockfileVersion 1 (the egress diff case, commit f3da82e), against the v2 locks cave
// build writes now for the same sources (fixtures/diff/egress): a lock from a previous commit must still diff.
const V1 = join(REPO_ROOT, "test", "cli", "lock-v1");
const V2 = join(REPO_ROOT, "fixtures", "diff", "egress");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-diff-v1-"));
  temps.push(dir);
  cpSync(join(V1, "egress-base.v1.lock"), join(dir, "base.v1.lock"));
  cpSync(join(V1, "egress-head.v1.lock"), join(dir, "head.v1.lock"));
  cpSync(join(V2, "base.lock"), join(dir, "base.v2.lock"));
  cpSync(join(V2, "head.lock"), join(dir, "head.v2.lock"));
  return dir;
}

type Change = { kind: string; impact: string; subject: { name: string | null }; message: string };
async function diff(dir: string, base: string, head: string): Promise<Change[]> {
  const run = await cave(["diff", base, head, "--json"], dir);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { changes: Change[] }).changes;
}

describe("cave diff across lockfileVersion 1 and 2", () => {
  it("shows a v1 lock's new powers against a v2 lock as it does between two v2 locks, plus the version", async () => {
    const dir = workspace();
    const powers = (changes: Change[]) =>
      changes.filter((c) => c.impact === "risky").map((c) => `${c.kind}:${c.subject.name}:${c.message}`);
    const across = await diff(dir, "base.v1.lock", "head.v2.lock");
    const same = await diff(dir, "base.v2.lock", "head.v2.lock");
    expect(powers(across)).toEqual(powers(same));
    expect(powers(across).length).toBeGreaterThan(0);
    expect(across).toContainEqual(
      expect.objectContaining({ kind: "lock", impact: "info", message: "lockfileVersion 1 → 2" }),
    );
    // Nothing unclassified: the v1 optional fields read as v2's empty values, the derived toolHashes/osLayerTools are not lock-wide facts.
    expect(across.filter((c) => c.impact === "unclassified")).toEqual([]);
  });

  it("finds no change in what a tool may do between the v1 and the v2 lock of the same sources", async () => {
    const dir = workspace();
    for (const [v1, v2] of [
      ["base.v1.lock", "base.v2.lock"],
      ["head.v1.lock", "head.v2.lock"],
    ]) {
      const changes = await diff(dir, v1!, v2!);
      // The SDK's own source moved between the two commits (an implementation change of every tool), and so did the
      // validator generator (the emitted canonical serializer, d400e3b: information, same schema); nothing else may.
      const regenerated = (c: Change) =>
        c.impact === "info" && c.message.includes("validator regenerated for the same schema");
      expect(
        changes
          .filter((c) => c.kind !== "implementation" && c.kind !== "lock" && !regenerated(c))
          .map((c) => c.message),
        `${v1} → ${v2}`,
      ).toEqual([]);
      expect(changes.filter((c) => c.kind === "lock").map((c) => c.message)).toEqual(["lockfileVersion 1 → 2"]);
    }
  });

  it("cave verify reads a v1 lock and says this Cave's runtime does not run it (CAVE9003)", async () => {
    const dir = workspace();
    cpSync(join(dir, "head.v1.lock"), join(dir, "cave.lock"));
    const run = await cave(["verify"], dir);
    expect(run.code).not.toBe(0);
    const codes = run.stderr
      .split("\n")
      .filter((l) => l.startsWith("error "))
      .map((l) => l.split(" ")[1]!.replace(":", ""));
    expect(codes[0]).toBe("CAVE9003");
    expect(run.stderr).toContain(
      "cave.lock has lockfileVersion 1 (an earlier cave build): this Cave reads it for cave diff and cave verify, but its runtime runs lockfileVersion 2 only; run cave build and deploy the new lock with its build folder",
    );
    // It was read: the missing build folder is reported too.
    expect(codes).toContain("CAVE9011");
  });
});

describe("an SDK change (cave upgraded, or its source edited)", () => {
  it("is information naming the SDK's files that changed, never unclassified", async () => {
    const { diffLocks } = await import("../../compiler/diff/classify.js");
    const { readFileSync } = await import("node:fs");
    const base = JSON.parse(
      readFileSync(join(V2, "base.lock"), "utf8"),
    ) as import("../../src/contract/lock.js").CaveLock;
    const files = { ...base.sdk!.files };
    const [first] = Object.keys(files).sort();
    files[first!] = `sha256-${"0".repeat(64)}`;
    files["cave/src/new-file.ts"] = `sha256-${"1".repeat(64)}`;
    const head = { ...base, sdk: { ...base.sdk!, sha256: `sha256-${"2".repeat(64)}`, files } };
    const { changes } = diffLocks({ label: "base", lock: base }, { label: "head", lock: head });
    expect(changes).toEqual([
      expect.objectContaining({
        kind: "implementation",
        impact: "info",
        subject: { type: "lock", name: null },
        message: `the SDK module changed (${base.sdk!.id}): 2 files of its source graph`,
        details: [`changed: ${first}`, "added: cave/src/new-file.ts"],
      }),
    ]);
  });
});
