import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { sha256 } from "../../src/contract/hash.js";

/** Where one replacement of a folder and a file puts the new content first and the old folder last. */
export interface Replacement {
  readonly dir: string;
  readonly file: string;
  /** The new folder, written in full before anything is swapped. */
  readonly staging: string;
  /** Where the old folder goes while the new one is renamed into place. */
  readonly retired: string;
  readonly fileTemp: string;
}

export function planReplacement(dir: string, file: string): Replacement {
  const suffix = randomBytes(6).toString("hex");
  return {
    dir,
    file,
    staging: `${dir}.tmp-${suffix}`,
    retired: `${dir}.old-${suffix}`,
    fileTemp: `${file}.tmp-${suffix}`,
  };
}

/**
 * How writeTree may keep a file of the folder being replaced instead of writing it again: creating a file is by far
 * the costliest part of writing a build folder (measured here: ~0.1-0.4 ms per new file, against ~15 us for a hard
 * link and ~40 us to read and hash an unchanged 20 KB file).
 */
export interface Reuse {
  /** The folder being replaced. */
  readonly from: string;
  /** sha256 of the new files' bytes, by path relative to the folder, where known. */
  readonly hashes: ReadonlyMap<string, string>;
}

/**
 * Writes files (paths relative to `into`) under `into`, creating each folder once rather than once per file. With
 * `reuse`, a file whose earlier copy holds the very same bytes is hard-linked instead of written (linkUnchanged).
 * `replacing`: some files may exist already (written before), and are replaced.
 */
export function writeTree(
  into: string,
  files: Iterable<readonly [string, string | Uint8Array]>,
  reuse?: Reuse,
  replacing = false,
): void {
  const made = new Set<string>();
  mkdirSync(into, { recursive: true });
  made.add(into);
  for (const [relative, data] of files) {
    const target = join(into, relative);
    const parent = dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    // A file there already may be a link to the replaced folder's file: it is unlinked, never written through.
    if (replacing) rmSync(target, { force: true });
    const expected = reuse?.hashes.get(relative);
    if (reuse && expected !== undefined && linkUnchanged(join(reuse.from, relative), target, expected)) continue;
    writeFileSync(target, data);
  }
}

/**
 * Hard-links `earlier` as `target` when it is a regular file (not followed through a symlink) whose bytes hash to
 * `expected`, and the link made is that very file (its inode), so nothing swapped in meanwhile is taken. False, with
 * nothing left at `target`, when any of that does not hold or the file system cannot link: the caller writes instead.
 * The new folder then holds the same bytes either way; the file keeps the earlier one's mode and time.
 */
function linkUnchanged(earlier: string, target: string, expected: string): boolean {
  let fd: number;
  try {
    fd = openSync(earlier, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return false;
  }
  try {
    const before = fstatSync(fd);
    if (!before.isFile() || sha256(readFileSync(fd)) !== expected) return false;
    linkSync(earlier, target);
    const linked = lstatSync(target);
    if (linked.ino === before.ino && linked.dev === before.dev) return true;
    unlinkSync(target);
    return false;
  } catch {
    rmSync(target, { force: true });
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Puts a fully written staging folder and the file's new bytes in place: the file is written beside its target, then
 * the folder is swapped by renames and the file renamed into place; if any step fails, the old folder is put back and
 * nothing new remains. The old folder is left at `retired` (whoever calls this removes it).
 */
export function swapIn(replacement: Replacement, fileData: string): void {
  const { dir, file, staging, retired, fileTemp } = replacement;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(fileTemp, fileData);
  } catch (thrown) {
    discardStaging(replacement);
    throw thrown;
  }
  const hadDir = existsSync(dir);
  try {
    if (hadDir) renameSync(dir, retired);
    renameSync(staging, dir);
  } catch (thrown) {
    if (hadDir && !existsSync(dir) && existsSync(retired)) renameSync(retired, dir);
    discardStaging(replacement);
    throw thrown;
  }
  try {
    renameSync(fileTemp, file);
  } catch (thrown) {
    rmSync(dir, { recursive: true, force: true });
    if (hadDir) renameSync(retired, dir);
    discardStaging(replacement);
    throw thrown;
  }
}

/** Removes whatever a replacement that will not happen has written (the staging folder and the file's temp). */
function discardStaging(replacement: Replacement): void {
  rmSync(replacement.staging, { recursive: true, force: true });
  rmSync(replacement.fileTemp, { force: true });
}

/**
 * Replaces a folder and a file together so that, whatever fails, either both are new or both are old:
 * everything new is written aside first; only then the folder is swapped by renames and the file renamed
 * into place; if that last rename fails the old folder is put back.
 */
export function replaceAtomically(
  dir: string,
  files: ReadonlyMap<string, string | Uint8Array>,
  file: string,
  fileData: string,
): void {
  const replacement = planReplacement(dir, file);
  try {
    writeTree(replacement.staging, files);
  } catch (thrown) {
    discardStaging(replacement);
    throw thrown;
  }
  swapIn(replacement, fileData);
  rmSync(replacement.retired, { recursive: true, force: true });
}

/** Writes one file through a temporary sibling and a rename: readers see the old or the new bytes, never half. */
export function writeFileAtomic(path: string, data: string): void {
  const temp = `${path}.tmp-${randomBytes(6).toString("hex")}`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (thrown) {
    rmSync(temp, { force: true });
    throw thrown;
  }
}
