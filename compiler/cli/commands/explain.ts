import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { closest } from "../../../src/contract/suggest.js";
import { explainTool } from "../../explain/index.js";
import { stableJson } from "../../diff/stable-json.js";
import { projectLockPath, readLockFile, shownPath } from "../../diff/load.js";
import { renderDiagnostic } from "../render-diagnostics.js";
import { styler, type CliIO } from "../io.js";
import { usageError } from "../usage.js";

import { EXPLAIN_USAGE } from "../usage-lines.js";

export { EXPLAIN_USAGE };

/** `cave explain TOOL`: what the lock says about one tool, in plain words; --json prints the locked object. Exit 0, or 1. */
export async function explainCommand(args: readonly string[], io: CliIO): Promise<number> {
  let values: { root?: string; lock?: string; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { root: { type: "string" }, lock: { type: "string" }, json: { type: "boolean" } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (thrown) {
    return usageError(io, thrown, EXPLAIN_USAGE);
  }
  if (positionals.length !== 1)
    return usageError(
      io,
      positionals.length === 0 ? "missing the tool name" : `one tool at a time (got ${positionals.length})`,
      EXPLAIN_USAGE,
    );
  const name = positionals[0]!;
  const root = resolve(io.cwd, values.root ?? ".");
  const style = styler(io);
  const fail = (code: string, message: string) => {
    if (values.json) io.stdout(stableJson({ ok: false, problems: [{ code, message }] }));
    else io.stderr(`${style("red", "error")} ${code}: ${message}\n`);
    return 1;
  };

  let lockPath: string;
  if (values.lock !== undefined) lockPath = shownPath(root, resolve(io.cwd, values.lock));
  else {
    const configured = projectLockPath(root);
    if (configured.lockPath === null) {
      for (const d of configured.diagnostics) io.stderr(renderDiagnostic(d, root, io));
      return 1;
    }
    lockPath = configured.lockPath;
  }
  const loaded = await readLockFile(root, join(root, lockPath), lockPath);
  if (loaded.absent) return fail("CAVE9001", `${lockPath} does not exist; run cave build first`);
  if (loaded.lock === null) return fail(loaded.problems[0]!.code, loaded.problems[0]!.message);
  const tool = loaded.lock.tools[name];
  if (!tool) {
    const names = Object.keys(loaded.lock.tools).sort();
    const guess = closest(name, names);
    const hint = guess
      ? `did you mean ${JSON.stringify(guess)}?`
      : names.length > 0
        ? `locked tools: ${names.join(", ")}`
        : "the lock has no tools";
    return fail("CAVE9040", `${lockPath} has no tool ${JSON.stringify(name)}; ${hint}`);
  }
  if (values.json) {
    io.stdout(stableJson(tool));
    return 0;
  }
  for (const p of loaded.problems) io.stderr(`${style("yellow", "warning")} ${p.code}: ${p.message}\n`);
  io.stdout(explainTool(loaded.lock, name));
  return 0;
}
