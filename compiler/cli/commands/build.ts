import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { build, compile, type BuildResult } from "../../build.js";
import type { CaveLock } from "../../../src/contract/lock.js";
import type { Diagnostic } from "../../diagnostics.js";
import { checkDeployment, type DeploymentProblem } from "../../../runtime/lock/deploy-check.js";
import { diffLocks, diffToJson, renderDiffText, stableJson, type LockDiff } from "../../diff/index.js";
import { projectLockPath, readLockFile, type LoadedLock } from "../../diff/load.js";
import type { CaveConfig } from "../../types.js";
import { summaryLine } from "../../diff/sections.js";
import { renderDiagnostic, summarise } from "../render-diagnostics.js";
import { annotation, diagnosticAnnotation } from "../github.js";
import { styler, type CliIO } from "../io.js";
import { usageError } from "../usage.js";

import { BUILD_USAGE } from "../usage-lines.js";

export { BUILD_USAGE };

type Mode = "write" | "check" | "frozen";
type Format = "text" | "json" | "github";
type Status = "written" | "unchanged" | "changed" | "failed";

/** Exit codes, as `terraform plan -detailed-exitcode` and `prisma migrate diff --exit-code`: 0 clean, 1 error, 2 the lock would change. */
const EXIT: Readonly<Record<Status, number>> = { written: 0, unchanged: 0, changed: 2, failed: 1 };

/** CI is set by every mainstream CI service; "false" and "0" opt out explicitly. */
export function isCI(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/**
 * `cave build`: writes cave.lock and the build folder (exit 0), or reports errors and writes nothing (1).
 * `--check` builds in memory and compares with the committed lock (0 identical, 2 would change).
 * `--frozen` builds and writes the build folder only when the lock would stay byte-identical; when it
 * would change, nothing at all is written (2). With CI set, plain `cave build` is `--frozen` unless `--write`.
 */
export async function buildCommand(args: readonly string[], io: CliIO): Promise<number> {
  let values: { root?: string; json?: boolean; check?: boolean; frozen?: boolean; write?: boolean; format?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        root: { type: "string" },
        json: { type: "boolean" },
        check: { type: "boolean" },
        frozen: { type: "boolean" },
        write: { type: "boolean" },
        format: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (thrown) {
    return usageError(io, thrown, BUILD_USAGE);
  }
  const modes = (["check", "frozen", "write"] as const).filter((m) => values[m]);
  if (modes.length > 1) return usageError(io, `--${modes[0]} and --${modes[1]} cannot be combined`, BUILD_USAGE);
  if (values.format !== undefined && !["text", "json", "github"].includes(values.format))
    return usageError(io, `unknown --format ${JSON.stringify(values.format)}: use text, json or github`, BUILD_USAGE);
  if (values.json && values.format !== undefined && values.format !== "json")
    return usageError(io, `--json and --format ${values.format} cannot be combined`, BUILD_USAGE);
  const format = (values.json ? "json" : (values.format ?? "text")) as Format;
  const ci = isCI(io.env);
  const mode: Mode = modes[0] ?? (ci ? "frozen" : "write");
  const root = resolve(io.cwd, values.root ?? ".");
  const out = new Output(io, root, format, mode, ci && modes.length === 0);

  if (mode === "write") {
    // Read before building, so the summary can say what this build changed in the lock.
    const { lockPath } = projectLockPath(root);
    const before = lockPath === null ? null : await readLockFile(root, join(root, lockPath));
    const comparable = before !== null && (before.lock !== null || before.absent);
    // The summary's diff is computed before the build writes anything: a summary that fails leaves the lock as it was.
    let diff: LockDiff | null = null;
    const review = (lock: CaveLock) => {
      if (comparable && before !== null && lockPath !== null)
        diff = diffLocks({ lock: before.lock, label: `previous ${lockPath}` }, { lock, label: lockPath });
    };
    const result = await build({ root, review });
    if (!result.ok) return out.failed(result.diagnostics);
    return out.done("written", result, diff, []);
  }

  // --check builds in memory; --frozen writes, but only if the lock stays byte-identical to the committed one, which
  // is read once the build knows where it is. A frozen build keeps no cache (when it refuses, nothing at all is written).
  let committed: LoadedLock | undefined;
  let committedText: string | null = null;
  const approve = async (_lock: CaveLock, lockText: string, config: CaveConfig) => {
    const path = join(root, config.lock);
    committed = await readLockFile(root, path);
    const loaded = committed;
    // Absent: nothing is committed. Unreadable: readLockFile said so (CAVE9001), and the diff below shows it.
    committedText = loaded.absent
      ? null
      : await readFile(path, "utf8").catch((thrown: unknown) =>
          loaded.problems.some((p) => p.code === "CAVE9001") ? null : Promise.reject(thrown),
        );
    return committedText === lockText;
  };
  const settings = { write: mode === "frozen", approve, evaluateTimeoutMs: undefined, bundleHashStandsIn: false };
  const result = await compile({ root, settings, cache: { whole: mode === "check", passes: "read" } });
  if (!result.ok) return out.failed(result.diagnostics);
  const config = result.config!;
  if (committed === undefined) throw new Error("internal: the build did not compare its lock with the committed one");
  if (committedText === result.lockText) {
    if (mode === "check") return out.done("unchanged", result, null, []);
    // The build folder and the same lock bytes were written together: prove they match.
    const problems = await checkDeployment(root, config.lock);
    if (problems.length > 0) return out.done("failed", result, null, problems);
    return out.done("unchanged", result, null, []);
  }
  const diff = diffLocks(
    { lock: committed.lock, label: committed.absent ? `${config.lock} (none committed)` : `committed ${config.lock}` },
    { lock: result.lock, label: "this build" },
    committed.problems,
  );
  return out.done("changed", result, diff, []);
}

/** Everything the command prints, in the three formats. */
class Output {
  constructor(
    private readonly io: CliIO,
    private readonly root: string,
    private readonly format: Format,
    private readonly mode: Mode,
    private readonly frozenByCI: boolean,
  ) {}

  failed(diagnostics: readonly Diagnostic[]): number {
    if (this.format === "json") return this.json("failed", null, null, diagnostics, []);
    for (const d of diagnostics) {
      if (this.format === "github") this.io.stdout(diagnosticAnnotation(d));
      else this.io.stderr(renderDiagnostic(d, this.root, this.io));
    }
    this.io.stderr(`cave build failed: ${summarise(diagnostics)}; nothing was written.\n`);
    return EXIT.failed;
  }

  done(status: Status, result: BuildResult, diff: LockDiff | null, problems: readonly DeploymentProblem[]): number {
    if (this.format === "json") return this.json(status, result, diff, result.diagnostics, problems);
    const style = styler(this.io);
    const github = this.format === "github";
    for (const d of result.diagnostics) {
      if (github) this.io.stdout(diagnosticAnnotation(d));
      else this.io.stderr(renderDiagnostic(d, this.root, this.io));
    }
    const config = result.config!;
    const lock = config.lock;
    const tools = Object.keys(result.lock!.tools).length;
    const counted = `${tools} tool${tools === 1 ? "" : "s"}`;
    if (status === "written") {
      const changed =
        diff === null
          ? ""
          : diff.changes.length === 0
            ? "; no change to what it locks"
            : `; ${summaryLine(diff)} (review with cave diff)`;
      this.io.stdout(
        `cave build: locked ${counted} in ${lock} (${result.lock!.integrity.slice(0, 19)}…), ${result.files.size} files in ${config.outDir}/${changed}\n`,
      );
      return EXIT.written;
    }
    if (status === "unchanged") {
      const wrote = result.written ? `; wrote ${result.files.size} files in ${config.outDir}/ matching it` : "";
      this.io.stdout(
        `cave build --${this.mode}${this.frozenByCI ? " (CI is set)" : ""}: ${lock} is up to date (${counted})${wrote}\n`,
      );
      return EXIT.unchanged;
    }
    if (status === "failed") {
      for (const p of problems) {
        if (github) this.io.stdout(annotation("error", p.message, { title: p.code }));
        else this.io.stderr(`${style("red", "error")} ${p.code}: ${p.message}\n`);
      }
      this.io.stderr(`cave build --${this.mode}: the written build folder does not match ${lock}.\n`);
      return EXIT.failed;
    }
    const d = diff!;
    const what =
      d.changes.length === 0
        ? `${lock} differs from what cave build writes, though not in what it locks (formatting or integrity only)`
        : `${lock} is out of date: ${summaryLine(d)}`;
    const action =
      this.mode === "check"
        ? "run cave build, review cave diff, and commit the lock"
        : `--frozen refuses to change it, so nothing was written; run cave build${this.frozenByCI ? " --write" : ""} locally, review cave diff, and commit the lock`;
    const ciNote = this.frozenByCI
      ? " (CI is set, so cave build runs as --frozen; pass --write to update the lock)"
      : "";
    if (github) {
      this.io.stdout(annotation("error", `${what}; ${action}${ciNote}`, { file: lock, title: "CAVE9020" }));
      this.io.stdout(renderDiffText(d));
    } else {
      this.io.stdout(renderDiffText(d, style));
      this.io.stderr(`${style("red", "error")} CAVE9020: ${what}; ${action}${ciNote}.\n`);
    }
    return EXIT.changed;
  }

  private json(
    status: Status,
    result: BuildResult | null,
    diff: LockDiff | null,
    diagnostics: readonly Diagnostic[],
    problems: readonly DeploymentProblem[],
  ): number {
    const lock = result?.lock ?? null;
    this.io.stdout(
      stableJson({
        ok: EXIT[status] === 0,
        exitCode: EXIT[status],
        status,
        mode: this.mode,
        frozenByCI: this.frozenByCI,
        lock: result?.config?.lock ?? null,
        integrity: lock?.integrity ?? null,
        tools: lock ? Object.keys(lock.tools).length : 0,
        files: result ? [...result.files.keys()] : [],
        written: result?.written ?? false,
        diagnostics,
        problems,
        diff: diff === null ? null : diffToJson(diff),
      }),
    );
    return EXIT[status];
  }
}
