import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as fromSource from "../../compiler/emit/index.js";
import { keysSorted, renderLock, sortKeys } from "../../compiler/emit/render.js";
import type { CaveConfig } from "../../compiler/types.js";
import type { CaveLock } from "../../src/contract/lock.js";
import { sha256 } from "../../src/contract/hash.js";
import { REPO_ROOT } from "../support/golden.js";

/**
 * beginEmit writes the build folder aside while the build goes on (a worker thread writes when the compiler runs from
 * dist/, this thread from source), keeping byte-identical files of the folder it replaces as hard links. Whatever it
 * wrote ahead or kept, it must end exactly as emit() would: the final files and nothing else, the new lock, nothing
 * left beside them; or, on failure or abort, everything as before.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const DIST_EMIT = join(REPO_ROOT, "dist", "compiler", "emit", "index.js");
type EmitModule = typeof fromSource;
const variants: Array<[string, () => Promise<EmitModule>]> = [["on this thread (from source)", async () => fromSource]];
if (existsSync(DIST_EMIT))
  variants.push(["on a worker thread (from dist)", async () => (await import(DIST_EMIT)) as EmitModule]);

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
      .map(
        (entry) =>
          [
            join(entry.parentPath, entry.name).slice(root.length + 1),
            readFileSync(join(entry.parentPath, entry.name), "utf8"),
          ] as const,
      )
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

const inode = (path: string) => lstatSync(path).ino;
const withHashes = (entries: Record<string, string>) => {
  const files = new Map(Object.entries(entries));
  return { files, hashes: Object.fromEntries([...files].map(([path, text]) => [path, sha256(text)])) };
};

describe.each(variants)("beginEmit %s", (_, load) => {
  it("ends with exactly the final files: kept, rewritten, added and dropped ones, and the earlier folder untouched until then", async () => {
    const { beginEmit } = await load();
    const root = project({
      ".cave/bundles/same.mjs": "unchanged bundle\n",
      ".cave/bundles/guessed.mjs": "guessed bundle\n",
      ".cave/bundles/gone.mjs": "gone\n",
    });
    const same = inode(join(root, ".cave/bundles/same.mjs"));
    const pending = beginEmit(root, config);
    // Written ahead: one file kept as it is, one guessed that will change (it is linked to the earlier file first),
    // one that will not be wanted.
    pending.ahead(
      withHashes({
        ".cave/bundles/same.mjs": "unchanged bundle\n",
        ".cave/bundles/guessed.mjs": "guessed bundle\n",
        ".cave/bundles/unwanted.mjs": "x\n",
      }),
    );
    const final = withHashes({
      ".cave/bundles/same.mjs": "unchanged bundle\n",
      ".cave/bundles/guessed.mjs": "final bundle\n",
      ".cave/validators/new.mjs": "validator é\n",
    });
    expect(await pending.finish({ ...final, lockText: "new lock\n" })).toEqual([]);
    expect(tree(root)).toEqual({ ...Object.fromEntries(final.files), "cave.lock": "new lock\n" });
    expect(inode(join(root, ".cave/bundles/same.mjs"))).toBe(same);
    expect(readdirSync(root).sort()).toEqual([".cave", "cave.lock"]);
    await pending.abort();
    expect(tree(root)).toEqual({ ...Object.fromEntries(final.files), "cave.lock": "new lock\n" });
  });

  it("a file rewritten after it was linked ahead is replaced, never written through into the earlier build's file", async () => {
    const { beginEmit } = await load();
    const root = project({ ".cave/bundles/a.mjs": "a\n" });
    const pending = beginEmit(root, config);
    pending.ahead(withHashes({ ".cave/bundles/a.mjs": "a\n" }));
    // The build then fails after the write-ahead: the earlier folder must be exactly as it was.
    const failing = await pending.finish({
      ...withHashes({ ".cave/bundles/a.mjs": "b\n", ".cave/x": "file\n", ".cave/x/y": "under a file\n" }),
      lockText: "new lock\n",
    });
    expect(failing.map((d) => d.code)).toEqual(["CAVE8001"]);
    expect(tree(root)).toEqual({ ".cave/bundles/a.mjs": "a\n", "cave.lock": "old lock\n" });
    expect(readdirSync(root).sort()).toEqual([".cave", "cave.lock"]);

    const again = beginEmit(root, config);
    again.ahead(withHashes({ ".cave/bundles/a.mjs": "a\n" }));
    const before = inode(join(root, ".cave/bundles/a.mjs"));
    expect(await again.finish({ ...withHashes({ ".cave/bundles/a.mjs": "b\n" }), lockText: "new lock\n" })).toEqual([]);
    expect(tree(root)).toEqual({ ".cave/bundles/a.mjs": "b\n", "cave.lock": "new lock\n" });
    expect(inode(join(root, ".cave/bundles/a.mjs"))).not.toBe(before);
  });

  it("keeps nothing whose bytes differ from the hash, and no symlink even to identical bytes", async () => {
    const { beginEmit } = await load();
    const root = project({
      ".cave/bundles/edited.mjs": "bundle\n// edited\n",
      "elsewhere/copy.mjs": "linked bundle\n",
    });
    symlinkSync(join(root, "elsewhere/copy.mjs"), join(root, ".cave/bundles/symlinked.mjs"));
    const final = withHashes({
      ".cave/bundles/edited.mjs": "bundle\n",
      ".cave/bundles/symlinked.mjs": "linked bundle\n",
    });
    const pending = beginEmit(root, config);
    pending.ahead(final);
    expect(await pending.finish({ ...final, lockText: "new lock\n" })).toEqual([]);
    expect(tree(root)).toEqual({
      ...Object.fromEntries(final.files),
      "cave.lock": "new lock\n",
      "elsewhere/copy.mjs": "linked bundle\n",
    });
    const kept = lstatSync(join(root, ".cave/bundles/symlinked.mjs"));
    expect(kept.isFile()).toBe(true);
    expect(kept.ino).not.toBe(inode(join(root, "elsewhere/copy.mjs")));
  });

  it("with no files at all, the build folder is swapped in empty", async () => {
    const { beginEmit } = await load();
    const root = project({ ".cave/bundles/a.mjs": "a\n" });
    const pending = beginEmit(root, config);
    expect(await pending.finish({ files: new Map(), hashes: {}, lockText: "new lock\n" })).toEqual([]);
    expect(tree(root)).toEqual({ "cave.lock": "new lock\n" });
    expect(readdirSync(join(root, ".cave"))).toEqual([]);
  });

  it("abort leaves the earlier lock and build folder, and nothing beside them", async () => {
    const { beginEmit } = await load();
    const root = project({ ".cave/bundles/a.mjs": "a\n" });
    const before = tree(root);
    const pending = beginEmit(root, config);
    pending.ahead(withHashes({ ".cave/bundles/a.mjs": "a\n", ".cave/bundles/b.mjs": "b\n" }));
    await pending.abort();
    await pending.abort();
    expect(tree(root)).toEqual(before);
    expect(readdirSync(root).sort()).toEqual([".cave", "cave.lock"]);
  });
});

describe("emit()", () => {
  it("writes exactly the given files and the lock, replacing the earlier folder", () => {
    const root = project({ ".cave/bundles/gone.mjs": "gone\n" });
    const files = new Map([
      [".cave/bundles/a.mjs", "a\n"],
      [".cave/validators/v.mjs", "v\n"],
    ]);
    expect(fromSource.emit(root, { config, lockText: "new lock\n", files })).toEqual([]);
    expect(tree(root)).toEqual({ ...Object.fromEntries(files), "cave.lock": "new lock\n" });
    expect(readdirSync(root).sort()).toEqual([".cave", "cave.lock"]);
  });
});

describe("renderLock()", () => {
  it("renders a lock whose keys are already sorted as it is, and sorts any other, to the same text", () => {
    const unsorted = { tools: { b: { z: 1, a: [{ y: 2, x: 1 }] }, a: {} }, integrity: "sha256-x", agents: {} };
    const sorted = sortKeys(unsorted);
    expect(keysSorted(unsorted)).toBe(false);
    expect(keysSorted(sorted)).toBe(true);
    expect(renderLock(unsorted as unknown as CaveLock)).toBe(renderLock(sorted as CaveLock));
    expect(
      renderLock(unsorted as unknown as CaveLock)
        .split("\n")
        .slice(0, 3),
    ).toEqual(["{", '  "agents": {},', '  "integrity": "sha256-x",']);
    // Integer-like keys are listed in numeric order by JavaScript itself, whatever sortKeys does.
    const numeric = { tools: { "10": 1, "9": 2 } };
    expect(keysSorted(numeric)).toBe(false);
    expect(renderLock(numeric as unknown as CaveLock)).toBe(`${JSON.stringify(sortKeys(numeric), null, 2)}\n`);
  });
});
