import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { diffLocks, renderDiffJson, renderDiffMarkdown, renderDiffText, stableJson } from "../../diff/index.js";
import { loadDiffSide, projectLockPath, readLockFile, type LoadedLock } from "../../diff/load.js";
import { renderDiagnostic } from "../render-diagnostics.js";
import { styler, type CliIO } from "../io.js";
import { usageError } from "../usage.js";

import { DIFF_USAGE } from "../usage-lines.js";

export { DIFF_USAGE };

/**
 * `cave diff`: what changed between two locks, for review. BASE and HEAD are lock files or git
 * revisions (the lock at that revision); BASE defaults to HEAD (git), HEAD to the working tree's
 * lock. Exit 0; with --exit-code, 2 when there are changes; 1 when a side cannot be read.
 */
export async function diffCommand(args: readonly string[], io: CliIO): Promise<number> {
  let values: { root?: string; format?: string; json?: boolean; "exit-code"?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        root: { type: "string" },
        format: { type: "string" },
        json: { type: "boolean" },
        "exit-code": { type: "boolean" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (thrown) {
    return usageError(io, thrown, DIFF_USAGE);
  }
  if (positionals.length > 2)
    return usageError(io, `at most two locks to compare (got ${positionals.length})`, DIFF_USAGE);
  if (values.format !== undefined && !["text", "markdown", "json"].includes(values.format))
    return usageError(io, `unknown --format ${JSON.stringify(values.format)}: use text, markdown or json`, DIFF_USAGE);
  if (values.json && values.format !== undefined && values.format !== "json")
    return usageError(io, `--json and --format ${values.format} cannot be combined`, DIFF_USAGE);
  const format = values.json ? "json" : (values.format ?? "text");
  const root = resolve(io.cwd, values.root ?? ".");
  const configured = projectLockPath(root);
  if (configured.lockPath === null) {
    for (const d of configured.diagnostics) io.stderr(renderDiagnostic(d, root, io));
    return 1;
  }
  const lockPath = configured.lockPath;

  const [baseArg = "HEAD", headArg] = positionals;
  const base = await loadDiffSide(root, io.cwd, lockPath, baseArg);
  const head =
    headArg === undefined
      ? await readLockFile(root, join(root, lockPath), `${lockPath} (working tree)`)
      : await loadDiffSide(root, io.cwd, lockPath, headArg);
  const unusable = [base, head].filter((side) => side.lock === null && !side.absent);
  if (unusable.length > 0) {
    const problems = unusable.flatMap((side) => side.problems);
    if (format === "json") io.stdout(stableJson({ ok: false, problems }));
    else {
      const style = styler(io);
      for (const p of problems) io.stderr(`${style("red", "error")} ${p.code}: ${p.message}\n`);
    }
    return 1;
  }
  const warnings = [base, head].flatMap((side) => side.problems);
  const diff = diffLocks(side(base), side(head), warnings);
  if (format === "json") io.stdout(renderDiffJson(diff));
  else if (format === "markdown") io.stdout(renderDiffMarkdown(diff));
  else io.stdout(renderDiffText(diff, styler(io)));
  return values["exit-code"] && diff.changes.length > 0 ? 2 : 0;
}

function side(loaded: LoadedLock): { lock: LoadedLock["lock"]; label: string } {
  return { lock: loaded.lock, label: loaded.absent ? `${loaded.label} (no lock)` : loaded.label };
}
