import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIFF_FIXTURES } from "./diff-cases.js";
import { cave } from "./helpers.js";

const dir = join(DIFF_FIXTURES, "effect-escalated");
const args = ["diff", "base.lock", "head.lock"];

describe("cave diff output", () => {
  it("colours text only on a terminal, and never with NO_COLOR", async () => {
    const tty = await cave(args, dir, {}, true);
    expect(tty.stdout).toContain("\u001b[31m+\u001b[39m");
    const plain = await cave(args, dir, {}, false);
    expect(plain.stdout).not.toContain("\u001b[");
    expect((await cave(args, dir, { NO_COLOR: "1" }, true)).stdout).toBe(plain.stdout);
    // Removing the escapes gives the plain text back: colour adds nothing else.
    expect(tty.stdout.replace(/\u001b\[\d+m/g, "")).toBe(plain.stdout);
  });

  it("never colours markdown or JSON, even on a terminal", async () => {
    for (const format of ["markdown", "json"]) {
      const run = await cave([...args, "--format", format], dir, {}, true);
      expect(run.stdout).not.toContain("\u001b[");
    }
    expect((await cave([...args, "--json"], dir, {}, true)).stdout).toBe(
      (await cave([...args, "--format", "json"], dir)).stdout,
    );
  });

  it("compares a lock with itself as no changes, exit 0 even with --exit-code", async () => {
    const run = await cave(["diff", "base.lock", "base.lock", "--exit-code"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "cave diff: base.lock → base.lock\nno changes: both locks give the agent the same tools, powers and contracts\n",
    );
  });

  it("warns about a lock whose integrity does not match, and still compares it", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "cave-diff-"));
    try {
      writeFileSync(join(tmp, "a.lock"), readFileSync(join(dir, "base.lock")));
      writeFileSync(
        join(tmp, "b.lock"),
        readFileSync(join(dir, "base.lock"), "utf8").replace('"timeoutMs": 10000', '"timeoutMs": 20000'),
      );
      const run = await cave(["diff", "a.lock", "b.lock"], tmp);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('tool "cancel_order": timeout 10000 ms (10 s) → 20000 ms (20 s)');
      expect(run.stdout).toContain(
        'warning CAVE9005: b.lock: tool "cancel_order": its entry was edited after cave build',
      );
      expect(run.stdout).not.toContain(tmp);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
