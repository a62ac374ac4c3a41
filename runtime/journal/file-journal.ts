import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { createFileRecoveryStore, type RecoveryStore } from "../results/store.js";
import { JournalError, journalError, reasonOf } from "./journal-error.js";
import type { Completion, ExpireOptions, Intent, Journal, RecordedCall, RecordedRun, RunSummary } from "./types.js";

/** One line of the file. */
type Entry =
  | { readonly t: "run"; readonly runId: string; readonly at: number }
  | ({ readonly t: "intent" } & Intent)
  | ({ readonly t: "completion" } & Completion)
  | { readonly t: "finish"; readonly runId: string; readonly at: number };

interface RunIndex {
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  readonly calls: Map<string, { intent: Intent; completion: Completion | null }>;
}

/**
 * The zero-dependency journal: one JSON entry per line, each appended with one write and synced
 * (fdatasync) before its promise resolves. It serves one process at a time (a `.lock` file with the
 * holder's pid) and keeps an index of the whole file in memory, so it suits small deployments and
 * tests; SQLite is the default. Exact results of result plans live in `<path>.results/`.
 *
 * Torn writes: an append that fails (ENOSPC, EIO) truncates the file back to the length it had before,
 * so the next append starts on a clean line; a line torn by a crash is cut off when the file is opened.
 * If even the truncation fails, the journal refuses every later record (reopening repairs it).
 */
export class FileJournal implements Journal {
  readonly backend = "file";
  readonly results: RecoveryStore;
  private readonly runs = new Map<string, RunIndex>();
  private size: number;
  private broken: JournalError | null = null;
  private closed = false;

  private constructor(
    private readonly path: string,
    private fd: number,
    private readonly lockPath: string,
  ) {
    this.size = fstatSync(fd).size;
    this.results = createFileRecoveryStore(`${path}.results`);
  }

  static open(path: string): FileJournal {
    const lockPath = `${path}.lock`;
    try {
      mkdirSync(dirname(path), { recursive: true });
      takeLock(lockPath);
    } catch (thrown) {
      throw journalError("open the journal file", thrown);
    }
    let journal: FileJournal | undefined;
    try {
      const fd = openSync(path, "a+");
      journal = new FileJournal(path, fd, lockPath);
      journal.load();
      return journal;
    } catch (thrown) {
      if (journal !== undefined) closeSync(journal.fd);
      rmSync(lockPath, { force: true });
      throw journalError("open the journal file", thrown);
    }
  }

  /** Reads every complete line; a torn last line (a crash mid-write) is cut off and never counted. */
  private load(): void {
    const text = readFileSync(this.path, "utf8");
    const complete = text.endsWith("\n") || text === "" ? text : text.slice(0, text.lastIndexOf("\n") + 1);
    if (complete.length !== text.length) {
      this.size = Buffer.byteLength(complete);
      ftruncateSync(this.fd, this.size);
      fdatasyncSync(this.fd);
    }
    const lines = complete.split("\n");
    for (let i = 0; i < lines.length - 1; i++) {
      let entry: Entry;
      try {
        entry = JSON.parse(lines[i]!) as Entry;
      } catch {
        throw new JournalError(
          "CORRUPT",
          `line ${i + 1} of the journal file is not JSON: it was not written by this journal; move the file aside`,
        );
      }
      this.apply(entry);
    }
  }

  private apply(entry: Entry): void {
    switch (entry.t) {
      case "run":
        if (!this.runs.has(entry.runId))
          this.runs.set(entry.runId, { createdAt: entry.at, updatedAt: entry.at, finishedAt: null, calls: new Map() });
        return;
      case "intent": {
        const { t: _, ...intent } = entry;
        const run = this.runs.get(intent.runId)!;
        const existing = run.calls.get(intent.key);
        // A re-run of an intent without completion replaces its call id; the order stays the first one's.
        if (existing !== undefined) existing.intent = intent;
        else run.calls.set(intent.key, { intent, completion: null });
        run.updatedAt = intent.at;
        return;
      }
      case "completion": {
        const { t: _, ...completion } = entry;
        const run = this.runs.get(completion.runId)!;
        run.calls.get(completion.key)!.completion = completion;
        run.updatedAt = completion.at;
        return;
      }
      case "finish": {
        const run = this.runs.get(entry.runId)!;
        run.finishedAt = entry.at;
        run.updatedAt = entry.at;
        return;
      }
    }
  }

  /** Appends the entries as one write and syncs; on failure the file is cut back to what it was. */
  private append(what: string, entries: readonly Entry[]): void {
    if (this.closed) throw new JournalError("CLOSED", `the journal is closed, so it could not ${what}`);
    if (this.broken !== null) throw this.broken;
    const bytes = Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join(""), "utf8");
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
      fdatasyncSync(this.fd);
    } catch (thrown) {
      try {
        ftruncateSync(this.fd, this.size);
        fdatasyncSync(this.fd);
      } catch (again) {
        this.broken = new JournalError(
          reasonOf(again),
          `the journal file could not be cut back after a failed write (${reasonOf(thrown)}, then ${reasonOf(again)}); nothing more is recorded until it is reopened, which removes the torn line`,
        );
      }
      throw journalError(what, thrown);
    }
    this.size += bytes.length;
    for (const entry of entries) this.apply(entry);
  }

  async openRun(runId: string, at: number): Promise<RecordedRun> {
    if (!this.runs.has(runId)) this.append("open the run", [{ t: "run", runId, at }]);
    return (await this.readRun(runId))!;
  }

  async recordIntent(intent: Intent): Promise<void> {
    const run = this.runOf(intent.runId, "record the call's intent");
    if (run.calls.get(intent.key)?.completion)
      throw new JournalError("CONFLICT", `call ${intent.key} of run ${intent.runId} already has a completion`);
    this.append("record the call's intent", [{ t: "intent", ...intent }]);
  }

  async recordCompletion(completion: Completion): Promise<void> {
    const call = this.runOf(completion.runId, "record the call's completion").calls.get(completion.key);
    if (call === undefined || call.completion !== null)
      throw new JournalError("CONFLICT", `call ${completion.key} of run ${completion.runId} has no open intent`);
    this.append("record the call's completion", [{ t: "completion", ...completion }]);
  }

  async recordRefused(intent: Intent, completion: Completion): Promise<void> {
    const run = this.runOf(intent.runId, "record the refused call");
    if (run.calls.get(intent.key)?.completion)
      throw new JournalError("CONFLICT", `call ${intent.key} of run ${intent.runId} is already complete`);
    this.append("record the refused call", [
      { t: "intent", ...intent },
      { t: "completion", ...completion },
    ]);
  }

  async readRun(runId: string): Promise<RecordedRun | null> {
    const run = this.runs.get(runId);
    if (run === undefined) return null;
    const calls: RecordedCall[] = [...run.calls.values()].map((c) => ({ intent: c.intent, completion: c.completion }));
    return { runId, createdAt: run.createdAt, finishedAt: run.finishedAt, calls };
  }

  async listRuns(): Promise<readonly RunSummary[]> {
    return [...this.runs.entries()]
      .map(([runId, run]) => {
        const calls = [...run.calls.values()];
        return {
          runId,
          createdAt: run.createdAt,
          updatedAt: run.updatedAt,
          finishedAt: run.finishedAt,
          calls: calls.length,
          inDoubt: calls.filter((c) => c.completion === null).length,
          locks: [...new Set(calls.map((c) => c.intent.lockIntegrity ?? "(none)"))].sort(),
        };
      })
      .sort((a, b) => a.createdAt - b.createdAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  }

  async finishRun(runId: string, at: number): Promise<void> {
    this.runOf(runId, "mark the run finished");
    this.append("mark the run finished", [{ t: "finish", runId, at }]);
  }

  /**
   * Rewrites the file without the expired runs: a new file is written and synced beside it, then
   * renamed over it, so a crash leaves either the old file or the new one, never a mix.
   */
  async expire(options: ExpireOptions): Promise<readonly string[]> {
    if (this.closed) throw new JournalError("CLOSED", "the journal is closed, so it could not expire runs");
    const expired = [...this.runs.entries()]
      .filter(
        ([, run]) =>
          (run.finishedAt !== null && run.finishedAt < options.finishedBefore) ||
          (options.includeUnfinished === true && run.updatedAt < options.finishedBefore),
      )
      .map(([id]) => id)
      .sort();
    if (expired.length === 0) return expired;
    const kept = [...this.runs.entries()].filter(([id]) => !expired.includes(id));
    const lines: string[] = [];
    for (const [runId, run] of kept) {
      lines.push(JSON.stringify({ t: "run", runId, at: run.createdAt }));
      for (const call of run.calls.values()) {
        lines.push(JSON.stringify({ t: "intent", ...call.intent }));
        if (call.completion !== null) lines.push(JSON.stringify({ t: "completion", ...call.completion }));
      }
      if (run.finishedAt !== null) lines.push(JSON.stringify({ t: "finish", runId, at: run.finishedAt }));
    }
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      const text = lines.map((l) => `${l}\n`).join("");
      writeFileSync(temp, text, { flush: true });
      renameSync(temp, this.path);
      closeSync(this.fd);
      this.fd = openSync(this.path, "a+");
      this.size = Buffer.byteLength(text);
    } catch (thrown) {
      rmSync(temp, { force: true });
      throw journalError("expire runs", thrown);
    }
    for (const id of expired) this.runs.delete(id);
    this.removeOrphanResults();
    return expired;
  }

  /** Exact results no remaining call refers to (results are shared by hash across runs). */
  private removeOrphanResults(): void {
    const dir = `${this.path}.results`;
    const referenced = new Set<string>();
    for (const run of this.runs.values())
      for (const call of run.calls.values())
        if (call.completion?.resultSha256) referenced.add(call.completion.resultSha256.replace(/^sha256-/, ""));
    let folders: string[];
    try {
      folders = readdirSync(dir).filter((name) => /^[0-9a-f]{2}$/.test(name));
    } catch {
      return;
    }
    for (const folder of folders) {
      for (const file of readdirSync(join(dir, folder))) {
        const hex = file.replace(/\.json$/, "");
        if (!referenced.has(hex)) unlinkSync(join(dir, folder, file));
      }
    }
  }

  private runOf(runId: string, what: string): RunIndex {
    const run = this.runs.get(runId);
    if (run === undefined)
      throw new JournalError("NOT_FOUND", `the journal could not ${what}: it has no run ${JSON.stringify(runId)}`);
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    rmSync(this.lockPath, { force: true });
  }
}

/** One process at a time: the lock file holds its pid; a lock whose process is gone (killed) is taken over. */
function takeLock(lockPath: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return;
    } catch (thrown) {
      if (reasonOf(thrown) !== "EEXIST") throw thrown;
    }
    const holder = Number(readFileSync(lockPath, "utf8"));
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
      throw new JournalError(
        "LOCKED",
        `the journal file is in use by process ${holder} (a file journal serves one process; use sqlite: for several)`,
      );
    }
    rmSync(lockPath, { force: true });
  }
  throw new JournalError("LOCKED", "the journal file's lock could not be taken");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (thrown) {
    return reasonOf(thrown) === "EPERM";
  }
}
