// A journal whose storage fails: a full disk (a small tmpfs) and a database made read-only mid-run
// (`chattr +i` on its files: writes through the open descriptors then fail with EPERM, even for root;
// a tmpfs cannot be remounted read-only while the journal holds files open for writing). Real mounts
// and attributes: these tests run as root on ext4 (as CI does here) and fail, not skip, without them. On both backends: call() never rejects, the failing call is a
// JOURNAL_FAILED outcome, no call is dispatched without its intent, and everything recorded before is
// intact and replays byte for byte once the storage works again.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, openJournal, type CallOutcome, type Runtime } from "../../runtime/index.js";
import { removeCopies } from "../support/projects.js";
import { builtDurableProject, effects } from "./support/journals.js";

let root: string;
beforeAll(async () => {
  root = await builtDurableProject();
});
afterAll(() => removeCopies());

const mounts: string[] = [];
function tmpfs(size: string): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-tmpfs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (thrown) {
    throw new Error(
      `these tests mount a small tmpfs (mount -t tmpfs -o size=${size}) and need root: ${String((thrown as { stderr?: unknown }).stderr ?? thrown)}`,
    );
  }
  mounts.push(dir);
  return dir;
}
const remount = (dir: string, options: string) =>
  execFileSync("mount", ["-o", `remount,${options}`, dir], { stdio: "pipe" });
const immutable: string[] = [];
function readOnly(files: string[]): void {
  for (const file of files) {
    execFileSync("chattr", ["+i", file], { stdio: "pipe" });
    immutable.push(file);
  }
}
function writable(): void {
  for (const file of immutable.splice(0)) execFileSync("chattr", ["-i", file], { stdio: "pipe" });
}
afterEach(() => {
  writable();
  for (const dir of mounts.splice(0)) {
    execFileSync("umount", ["-l", dir], { stdio: "pipe" });
    rmSync(dir, { recursive: true, force: true });
  }
});

const code = (outcome: CallOutcome) => (outcome.ok ? "ok" : outcome.error.code);
const settingIn = (backend: string, dir: string) =>
  backend === "sqlite" ? `sqlite:${join(dir, "journal.db")}` : `file:${join(dir, "journal.jsonl")}`;

// Disk full and read-only storage are the local backends' failures (a PostgreSQL server's are its own).
describe.each(["sqlite", "file"] as const)("journal storage failures on the %s journal", (backend) => {
  it("a full disk (ENOSPC) gives JOURNAL_FAILED outcomes, never a dispatch without its intent, and loses nothing recorded", async () => {
    // 64 KiB for the file journal; SQLite needs room for its schema, its WAL and its 32 KiB shared-memory file.
    const disk = tmpfs(backend === "sqlite" ? "192k" : "64k");
    const effectFile = join(mkdtempSync(join(tmpdir(), "cave-effects-")), "effects.txt");
    const setting = settingIn(backend, disk);
    // Ballast, removed after the disk filled up: the same process then records again.
    writeFileSync(join(disk, "ballast"), Buffer.alloc(24_576));
    const runtime: Runtime = await createRuntime({ root, mode: "host", journal: setting });
    const run = runtime.startRun({ id: "full-disk" });
    const returned: CallOutcome[] = [];
    let failed: CallOutcome | undefined;
    for (let i = 0; i < 200 && failed === undefined; i++) {
      // Each completion holds the 10 KB line (over two pages, so the write that fails usually writes part of it first): the disk fills within a few dozen calls.
      const outcome = await run.call("append_line", { line: `${i}:${"x".repeat(10_000)}`, file: effectFile });
      if (outcome.ok) returned.push(outcome);
      else failed = outcome;
    }
    expect(failed, "the 64 KiB disk must fill up").toBeDefined();
    expect(code(failed!)).toBe("JOURNAL_FAILED");
    expect(failed!.ok ? "" : failed!.error.message).toMatch(/ENOSPC|SQLITE_FULL|disk|full/i);
    // A later call of the same size fails the same way, as an outcome (a failed record took no space).
    expect(code(await run.call("append_line", { line: `after:${"x".repeat(10_000)}`, file: effectFile }))).toBe(
      "JOURNAL_FAILED",
    );
    // Space again, same process: the next record is whole, not glued to what a failed write left.
    rmSync(join(disk, "ballast"));
    const later = await run.call("append_line", { line: "later", file: effectFile });
    expect(code(later)).toBe("ok");
    if (backend === "file")
      for (const line of readFileSync(join(disk, "journal.jsonl"), "utf8").split("\n").slice(0, -1))
        expect(() => JSON.parse(line)).not.toThrow();
    returned.push(later);
    runtime.close();

    remount(disk, "size=4m");
    const journal = await openJournal(setting, root);
    const recorded = (await journal.readRun("full-disk"))!;
    await journal.close();
    // Every outcome that was returned is recorded, byte for byte.
    const completions = recorded.calls.filter((c) => c.completion !== null).map((c) => c.completion!.outcome);
    expect(completions).toEqual(returned.map((o) => JSON.stringify(o)));
    // No effect without an intent: every line the tool wrote belongs to a recorded call.
    expect(effects(effectFile).length).toBeLessThanOrEqual(recorded.calls.length);
    expect(effects(effectFile).length).toBeGreaterThanOrEqual(returned.length);
    // The failed appends left the file as it was: whole lines only (no torn line for the next append to glue onto).
    const fileText = () => readFileSync(join(disk, "journal.jsonl"), "utf8");
    if (backend === "file") expect(fileText().endsWith("\n")).toBe(true);

    // With space again, the run resumes: what was returned replays byte for byte.
    const resumed = await createRuntime({ root, mode: "host", journal: setting });
    const again = resumed.startRun({ id: "full-disk" });
    for (const [i, outcome] of returned.slice(0, -1).entries())
      expect(
        JSON.stringify(await again.call("append_line", { line: `${i}:${"x".repeat(10_000)}`, file: effectFile })),
      ).toBe(JSON.stringify(outcome));
    expect(code(await again.call("append_line", { line: "new", file: effectFile }))).not.toBe("JOURNAL_FAILED");
    resumed.close();
    if (backend === "file")
      for (const line of fileText().split("\n").slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("a database made read-only mid-run gives JOURNAL_FAILED before dispatch; the tool does not run; the record stays whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cave-readonly-"));
    const effectFile = join(dir, "effects.txt");
    const setting = settingIn(backend, dir);
    const runtime = await createRuntime({ root, mode: "host", journal: setting });
    const run = runtime.startRun({ id: "read-only" });
    const first = await run.call("append_line", { line: "one", file: effectFile });
    expect(code(first)).toBe("ok");
    // Not the -shm file: SQLite maps it into memory, and a write fault on an immutable mapping is SIGBUS, not an error.
    readOnly(
      backend === "sqlite" ? ["journal.db", "journal.db-wal"].map((f) => join(dir, f)) : [join(dir, "journal.jsonl")],
    );
    const refused = await run.call("append_line", { line: "two", file: effectFile });
    expect(code(refused)).toBe("JOURNAL_FAILED");
    expect(refused.ok ? "" : refused.error.message).toContain("was not run");
    expect(refused.receipt.effectUnknown).toBe(false);
    expect(effects(effectFile)).toEqual(["one"]);
    runtime.close();

    writable();
    const resumed = await createRuntime({ root, mode: "host", journal: setting });
    const again = resumed.startRun({ id: "read-only" });
    expect(JSON.stringify(await again.call("append_line", { line: "one", file: effectFile }))).toBe(
      JSON.stringify(first),
    );
    expect(code(await again.call("append_line", { line: "two", file: effectFile }))).toBe("ok");
    expect(effects(effectFile)).toEqual(["one", "two"]);
    resumed.close();
  });
});
