import { parseArgs } from "node:util";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { CaveLock } from "../../../src/contract/lock.js";
import { checkDeployment } from "../../../runtime/lock/deploy-check.js";
import { checkIsolation } from "../../../runtime/sandbox/deploy-isolation.js";
import { MANIFEST_FILE } from "../../../runtime/loading/externals.js";
import { writeManifest } from "../../manifest.js";
import { stableJson } from "../../diff/stable-json.js";
import { projectLockPath, shownPath } from "../../diff/load.js";
import { renderDiagnostic } from "../render-diagnostics.js";
import { styler, type CliIO } from "../io.js";
import { usageError } from "../usage.js";

import { VERIFY_USAGE } from "../usage-lines.js";

export { VERIFY_USAGE };

/**
 * `cave verify`: checks the lock and its build folder as a deploy does (runtime/lock/deploy-check.ts, the
 * same code the runtime can run at start-up), and that the sandbox can run as configured on this machine. Exit 0 when deployable, 1 with one line per problem.
 */
export async function verifyCommand(args: readonly string[], io: CliIO): Promise<number> {
  let values: { root?: string; lock?: string; json?: boolean; "write-manifest"?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        root: { type: "string" },
        lock: { type: "string" },
        json: { type: "boolean" },
        "write-manifest": { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (thrown) {
    return usageError(io, thrown, VERIFY_USAGE);
  }
  const root = resolve(io.cwd, values.root ?? ".");
  let lockPath: string;
  if (values.lock !== undefined) lockPath = shownPath(root, resolve(io.cwd, values.lock));
  else {
    const configured = projectLockPath(root);
    if (configured.lockPath === null) {
      if (values.json)
        io.stdout(
          stableJson({
            ok: false,
            lock: null,
            problems: configured.diagnostics.map((d) => ({ code: d.code, message: d.message })),
          }),
        );
      else for (const d of configured.diagnostics) io.stderr(renderDiagnostic(d, root, io));
      return 1;
    }
    lockPath = configured.lockPath;
  }
  // --write-manifest: a stale manifest (another build) is no problem, it is what gets replaced; everything else must check out first.
  // The sandbox as this machine would run it: a deploy runs cave verify where it will run.
  const deployment = await checkDeployment(root, lockPath);
  const problems =
    values["write-manifest"] === true
      ? deployment.filter((p) => !(p.code === "CAVE9120" && p.message.startsWith(`${MANIFEST_FILE} `)))
      : deployment;
  const lock = problems.length === 0 ? (JSON.parse(await readFile(resolve(root, lockPath), "utf8")) as CaveLock) : null;
  if (lock !== null) problems.push(...(await checkIsolation(root, lock, io.env)));
  if (problems.length === 0 && values["write-manifest"] === true) {
    const written = writeManifest(root, lockPath);
    if ("problem" in written) problems.push(written.problem);
    else if (!values.json)
      io.stdout(
        `cave verify: wrote ${MANIFEST_FILE}: the files of ${written.packages} installed external package${written.packages === 1 ? "" : "s"}, which the runtime now checks before a tool first uses them\n`,
      );
  }
  if (values.json) {
    io.stdout(stableJson({ ok: problems.length === 0, lock: lockPath, problems }));
    return problems.length === 0 ? 0 : 1;
  }
  if (problems.length === 0) {
    io.stdout(
      `cave verify: ${lockPath} and its build folder match: integrity, every pinned file and every tool reference check out\n`,
    );
    return 0;
  }
  const style = styler(io);
  for (const p of problems) io.stderr(`${style("red", "error")} ${p.code}: ${p.message}\n`);
  io.stderr(
    `cave verify: ${problems.length} problem${problems.length === 1 ? "" : "s"}; this build is not deployable.\n`,
  );
  return 1;
}
