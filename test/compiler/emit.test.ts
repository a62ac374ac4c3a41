import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emit } from "../../compiler/emit/index.js";
import { keysSorted, renderLock, sortKeys } from "../../compiler/emit/render.js";
import type { CaveLock } from "../../src/contract/lock.js";
import type { CaveConfig } from "../../compiler/types.js";
import { sha256 } from "../../src/contract/hash.js";

/**
 * emit() may keep files of the build folder it replaces (hard links) when it is told their hashes: creating files is
 * most of what writing a build folder costs. Whatever it keeps, the result must be exactly the files it was given.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const config = { include: ["tools/**/*.ts"], exclude: [], outDir: ".cave", lock: "cave.lock" } as unknown as CaveConfig;

/** A project with a lock and a build folder from an earlier build. */
function project(earlier: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cave-emit-"));
  made.push(root);
  for (const [path, text] of Object.entries(earlier)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, "cave.lock"), "old lock\n");
  return root;
}

function tree(root: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => [join(entry.parentPath, entry.name).slice(root.length + 1), readFileSync(join(entry.parentPath, entry.name), "utf8")] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

const inode = (path: string) => lstatSync(path).ino;
const hashesOf = (files: Map<string, string>) => Object.fromEntries([...files].map(([path, text]) => [path, sha256(text)]));

describe("emit() keeping unchanged files", () => {
  const final = new Map([
    [".cave/bundles/same.mjs", "unchanged bundle\n"],
    [".cave/bundles/changed.mjs", "new bundle\n"],
    [".cave/validators/new.mjs", "new validator é\n"],
  ]);

  it("links what is byte-identical, writes the rest, drops what is gone: exactly the given files", async () => {
    const root = project({ ".cave/bundles/same.mjs": "unchanged bundle\n", ".cave/bundles/changed.mjs": "old bundle\n", ".cave/bundles/gone.mjs": "gone\n" });
    const same = inode(join(root, ".cave/bundles/same.mjs"));
    const changed = inode(join(root, ".cave/bundles/changed.mjs"));
    expect(emit(root, { config, lockText: "new lock\n", files: final, hashes: hashesOf(final) })).toEqual([]);
    expect(tree(root)).toEqual({ ...Object.fromEntries(final), "cave.lock": "new lock\n" });
    expect(inode(join(root, ".cave/bundles/same.mjs"))).toBe(same);
    expect(inode(join(root, ".cave/bundles/changed.mjs"))).not.toBe(changed);
    expect(readdirSync(root).sort()).toEqual([".cave", "cave.lock"]);
  });

  it("without hashes, or with a hash the earlier bytes do not have, writes every file anew", async () => {
    const root = project({ ".cave/bundles/same.mjs": "unchanged bundle\n" });
    const before = inode(join(root, ".cave/bundles/same.mjs"));
    expect(emit(root, { config, lockText: "new lock\n", files: final })).toEqual([]);
    expect(inode(join(root, ".cave/bundles/same.mjs"))).not.toBe(before);

    // The earlier file was edited after its build: its bytes no longer hash as the new file's do.
    writeFileSync(join(root, ".cave/bundles/same.mjs"), "unchanged bundle\n// edited\n");
    expect(emit(root, { config, lockText: "new lock\n", files: final, hashes: hashesOf(final) })).toEqual([]);
    expect(readFileSync(join(root, ".cave/bundles/same.mjs"), "utf8")).toBe("unchanged bundle\n");
  });

  it("never keeps a symlink, even to identical bytes: the new folder holds a regular file", async () => {
    const root = project({ "elsewhere/copy.mjs": "unchanged bundle\n" });
    mkdirSync(join(root, ".cave/bundles"), { recursive: true });
    symlinkSync(join(root, "elsewhere/copy.mjs"), join(root, ".cave/bundles/same.mjs"));
    expect(emit(root, { config, lockText: "new lock\n", files: final, hashes: hashesOf(final) })).toEqual([]);
    const kept = lstatSync(join(root, ".cave/bundles/same.mjs"));
    expect(kept.isFile()).toBe(true);
    expect(kept.ino).not.toBe(inode(join(root, "elsewhere/copy.mjs")));
    expect(readFileSync(join(root, ".cave/bundles/same.mjs"), "utf8")).toBe("unchanged bundle\n");
  });
});

describe("renderLock()", () => {
  it("renders a lock whose keys are already sorted as it is, and sorts any other, to the same text", () => {
    const unsorted = { tools: { b: { z: 1, a: [{ y: 2, x: 1 }] }, a: {} }, integrity: "sha256-x", agents: {} };
    const sorted = sortKeys(unsorted);
    expect(keysSorted(unsorted)).toBe(false);
    expect(keysSorted(sorted)).toBe(true);
    expect(renderLock(unsorted as unknown as CaveLock)).toBe(renderLock(sorted as CaveLock));
    expect(renderLock(unsorted as unknown as CaveLock).split("\n").slice(0, 3)).toEqual(["{", '  "agents": {},', '  "integrity": "sha256-x",']);
    // Integer-like keys are listed in numeric order by JavaScript itself, whatever sortKeys does.
    const numeric = { tools: { "10": 1, "9": 2 } };
    expect(keysSorted(numeric)).toBe(false);
    expect(renderLock(numeric as unknown as CaveLock)).toBe(`${JSON.stringify(sortKeys(numeric), null, 2)}\n`);
  });
});
