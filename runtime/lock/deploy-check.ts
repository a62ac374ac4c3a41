import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { CaveCode } from "../../src/contract/codes.js";
import type { CaveLock } from "../../src/contract/lock.js";
import { buildFolderProblems } from "./build-folder.js";
import { inspectLock as inspectLockText } from "./inspect.js";
import { LOCK_PROBLEM_CODES, lockProblemMessage, type LockProblem } from "./problems.js";
import { checkExternals, readManifest } from "../loading/externals.js";
import { RuntimeError } from "../errors.js";

/** One thing wrong with a lock or its build folder as the cave CLI reports it: a stable code and one line naming the file or tool. */
export interface DeploymentProblem {
  readonly code: CaveCode;
  readonly message: string;
}

/** A lock read from text: the lock when it can be used at all (JSON, known version, v2 shape), and every problem found. */
export interface InspectedLock {
  readonly lock: CaveLock | null;
  readonly problems: readonly DeploymentProblem[];
}

/**
 * Checks a build folder and its lock as a deploy would (the lock inspector, runtime/lock/inspect.ts, then the build
 * folder and the installed external packages): the lock parses, its version is supported, its integrity matches, every
 * file it pins is present with its hash, the build folder holds nothing else, and every tool an agent or a composite
 * names is locked. `lockPath` is relative to `root` (default "cave.lock"). Returns the problems with their CAVE9xxx
 * codes, one line each, in a stable order; [] means deployable.
 */
export async function checkDeployment(root: string, lockPath = "cave.lock"): Promise<DeploymentProblem[]> {
  const absolute = isAbsolute(lockPath) ? lockPath : join(root, lockPath);
  const shown = toPosix(relative(root, absolute));
  const report = (problems: readonly LockProblem[]) => problems.map((problem) => deploymentProblem(problem, shown));
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    return report([
      code === "ENOENT" || code === "ENOTDIR"
        ? { kind: "absent" }
        : { kind: "unreadable", reason: typeof code === "string" ? code : "read error" },
    ]);
  }
  const { lock, problems } = inspectLockText(text);
  if (lock === null) return report(problems);
  // Read (cave diff compares it), but not run: the runtime verifies each entry against toolHashes, which v1 lacks.
  const v1: LockProblem[] = lock.lockfileVersion === 1 ? [{ kind: "version", found: 1 }] : [];
  return report([...v1, ...problems, ...(await buildFolderProblems(root, lock)), ...externalProblems(root, lock)]);
}

/** inspectLock() of runtime/lock/inspect.ts, its problems with their CAVE9xxx codes: for cave diff. */
export function inspectLock(text: string, shown: string): InspectedLock {
  const { lock, problems } = inspectLockText(text);
  return { lock, problems: problems.map((problem) => deploymentProblem(problem, shown)) };
}

/** A lock problem as the cave CLI reports it. */
export function deploymentProblem(problem: LockProblem, shown: string): DeploymentProblem {
  return { code: LOCK_PROBLEM_CODES[problem.kind].cave, message: lockProblemMessage(problem, shown, "cave") };
}

/** The installed external packages against the lock's pins (and the deploy's manifest, when there is one): one problem at most. */
function externalProblems(root: string, lock: CaveLock): LockProblem[] {
  const pins = lock.externals;
  if (pins === undefined) return [];
  try {
    checkExternals(root, Object.keys(pins).sort(), pins, readManifest(root, lock.integrity), "the lock");
    return [];
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return [{ kind: "externals", message: thrown.message }];
    throw thrown;
  }
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
