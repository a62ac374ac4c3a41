import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { main } from "../../compiler/cli/main.js";
import type { CliIO } from "../../compiler/cli/io.js";
import { REPO_ROOT } from "../support/golden.js";

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `cave ...argv` in-process with a captured io (no TTY, the given env), from `cwd`. */
export async function cave(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  isTTY = false,
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd, env, isTTY };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** Nothing a command prints may name this machine's paths: the temporary root, the repository, /tmp. */
export function expectRelativeOnly(run: Run, root: string): void {
  const all = run.stdout + run.stderr;
  expect(all).not.toContain(root);
  expect(all).not.toContain(REPO_ROOT);
  expect(all).not.toMatch(/\/tmp\//);
}

/** Every file under a folder with its bytes, to prove that nothing was written. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries)
    if (e.isFile())
      out[join(e.parentPath, e.name).slice(dir.length)] = readFileSync(join(e.parentPath, e.name), "base64");
  return out;
}
