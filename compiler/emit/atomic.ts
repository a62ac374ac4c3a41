import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Replaces a folder and a file together so that, whatever fails, either both are new or both are old:
 * everything new is written aside first; only then the folder is swapped by renames and the file renamed
 * into place; if that last rename fails the old folder is put back.
 */
export function replaceAtomically(dir: string, files: ReadonlyMap<string, string | Uint8Array>, file: string, fileData: string): void {
  const suffix = randomBytes(6).toString("hex");
  const staging = `${dir}.tmp-${suffix}`;
  const retired = `${dir}.old-${suffix}`;
  const fileTemp = `${file}.tmp-${suffix}`;
  const cleanup = () => {
    rmSync(staging, { recursive: true, force: true });
    rmSync(fileTemp, { force: true });
  };
  try {
    mkdirSync(staging, { recursive: true });
    for (const [relative, data] of files) {
      const target = join(staging, relative);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, data);
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(fileTemp, fileData);
  } catch (thrown) {
    cleanup();
    throw thrown;
  }
  const hadDir = existsSync(dir);
  try {
    if (hadDir) renameSync(dir, retired);
    renameSync(staging, dir);
  } catch (thrown) {
    if (hadDir && !existsSync(dir) && existsSync(retired)) renameSync(retired, dir);
    cleanup();
    throw thrown;
  }
  try {
    renameSync(fileTemp, file);
  } catch (thrown) {
    rmSync(dir, { recursive: true, force: true });
    if (hadDir) renameSync(retired, dir);
    cleanup();
    throw thrown;
  }
  rmSync(retired, { recursive: true, force: true });
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
