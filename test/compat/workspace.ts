import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { REPO_ROOT } from "../support/golden.js";

/** The compatibility workspace: real registry packages, installed by .ci/run with `npm ci` in this folder. */
export const WORKSPACE = join(REPO_ROOT, "test/compat/workspace");

const made: string[] = [];

/**
 * A copy of the workspace's own files (tools, config, package files) in a fresh temporary root, with the workspace's
 * installed node_modules linked in. Throws, so the test fails rather than skips, when the packages are not installed.
 */
export function copyWorkspace(only?: readonly string[]): string {
  const modules = join(WORKSPACE, "node_modules");
  if (!existsSync(join(modules, ".package-lock.json"))) {
    throw new Error(`the compatibility workspace is not installed: run npm ci in ${WORKSPACE} (.ci/run does)`);
  }
  const root = mkdtempSync(join(tmpdir(), "cave-compat-"));
  made.push(root);
  for (const name of readdirSync(WORKSPACE)) {
    if (name === "node_modules" || name === ".cave" || name === "cave.lock") continue;
    if (name === "tools" && only !== undefined) {
      for (const tool of only) cpSync(join(WORKSPACE, "tools", tool), join(root, "tools", tool), { recursive: true });
      continue;
    }
    cpSync(join(WORKSPACE, name), join(root, name), { recursive: true });
  }
  symlinkSync(modules, join(root, "node_modules"), "dir");
  return root;
}

export function removeWorkspaceCopies(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Checks that every locked tool's bundle in the built workspace copy `root` ends with its source map (inline), whose
 * sources are named without a path of this machine: the packages' own maps are followed, not copied with their paths.
 */
export function expectSourceMaps(root: string): void {
  const prefix = "//# sourceMappingURL=data:application/json;base64,";
  const tools = (
    JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")) as {
      tools: Record<string, { source: { bundle: string } }>;
    }
  ).tools;
  expect(Object.keys(tools).length).toBeGreaterThan(0);
  for (const [name, locked] of Object.entries(tools)) {
    const last = readFileSync(join(root, locked.source.bundle), "utf8").trimEnd().split("\n").at(-1)!;
    expect(last.startsWith(prefix), name).toBe(true);
    const sources = JSON.parse(Buffer.from(last.slice(prefix.length), "base64").toString("utf8")).sources as string[];
    expect(
      sources.filter((source) => source.startsWith("/") || source.includes("..") || source === "(unknown source)"),
      name,
    ).toEqual([]);
  }
}
