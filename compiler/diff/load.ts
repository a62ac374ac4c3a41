import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { CaveLock } from "../../src/contract/lock.js";
import { deploymentProblem, inspectLock, type DeploymentProblem } from "../../runtime/lock/deploy-check.js";
import { loadConfig } from "../discover/config.js";
import type { Diagnostic } from "../diagnostics.js";

/** A lock read for a command: where it came from (label), the lock when readable, and what is wrong with it. */
export interface LoadedLock {
  readonly label: string;
  /** null when the lock is absent (`absent` is true) or unusable (see problems). */
  readonly lock: CaveLock | null;
  readonly absent: boolean;
  readonly problems: readonly DeploymentProblem[];
}

/** The project's lock path from cave.config.json or package.json, or the configuration's diagnostics. */
export function projectLockPath(root: string): { lockPath: string | null; diagnostics: readonly Diagnostic[] } {
  const { config, diagnostics } = loadConfig(root, undefined);
  return diagnostics.some((d) => d.severity === "error")
    ? { lockPath: null, diagnostics }
    : { lockPath: config.lock, diagnostics };
}

/** A path as messages show it: POSIX, relative to the project root. */
export function shownPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

/** Reads a lock file; a missing file is `absent`, not an error, so callers decide what absence means. */
export async function readLockFile(
  root: string,
  absolute: string,
  label = shownPath(root, absolute),
): Promise<LoadedLock> {
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { label, lock: null, absent: true, problems: [] };
    return {
      label,
      lock: null,
      absent: false,
      problems: [
        deploymentProblem(
          { kind: "unreadable", reason: typeof code === "string" ? code : "read error" },
          shownPath(root, absolute),
        ),
      ],
    };
  }
  const { lock, problems } = inspectLock(text, label);
  return { label, lock, absent: false, problems };
}

/**
 * One side of `cave diff`: an existing file (relative to `cwd`), else a git revision whose tree holds
 * the lock at `lockPath`. git runs with execFile in the project root, never through a shell.
 */
export async function loadDiffSide(root: string, cwd: string, lockPath: string, arg: string): Promise<LoadedLock> {
  const asFile = isAbsolute(arg) ? arg : resolve(cwd, arg);
  const fileStat = await stat(asFile).catch(() => null);
  if (fileStat?.isFile()) return readLockFile(root, asFile);
  if (arg.startsWith("-") || arg.includes("\0")) {
    return failed(arg, {
      code: "CAVE9031",
      message: `${JSON.stringify(arg)} is neither a lock file nor a git revision; pass a path to a lock file or a revision such as main`,
    });
  }
  const inside = await git(root, ["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok) {
    return failed(arg, {
      code: "CAVE9030",
      message: `${JSON.stringify(arg)} is not a lock file, and the project is not in a git repository (${inside.reason}); pass lock files instead`,
    });
  }
  const commit = await git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${arg}^{commit}`]);
  if (!commit.ok) {
    return failed(arg, {
      code: "CAVE9031",
      message: `${JSON.stringify(arg)} is neither a lock file nor a git revision of this repository; pass a path to a lock file or a revision such as main`,
    });
  }
  const label = `${arg}:${lockPath}`;
  const shown = await git(root, ["show", `${commit.stdout.trim()}:./${lockPath}`]);
  if (!shown.ok) {
    // The revision exists but has no lock there: everything in the other side is new.
    if (/does not exist|exists on disk, but not in/.test(shown.reason))
      return { label, lock: null, absent: true, problems: [] };
    return failed(label, {
      code: "CAVE9030",
      message: `could not read ${label} with git (${shown.reason}); check the revision`,
    });
  }
  const { lock, problems } = inspectLock(shown.stdout, label);
  return { label, lock, absent: false, problems };
}

function failed(label: string, problem: DeploymentProblem): LoadedLock {
  return { label, lock: null, absent: false, problems: [problem] };
}

type GitResult = { ok: true; stdout: string } | { ok: false; reason: string };

function git(root: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((done) => {
    execFile(
      "git",
      [...args],
      {
        cwd: root,
        env: { ...process.env, LC_ALL: "C" },
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return done({ ok: true, stdout });
        const code = (error as { code?: unknown }).code;
        const reason =
          code === "ENOENT" ? "git is not installed" : firstLine(stderr) || `git exited with ${String(code)}`;
        done({ ok: false, reason: reason.split(root).join(".") });
      },
    );
  });
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== "")
      ?.trim()
      .replace(/^fatal: /, "") ?? ""
  );
}
