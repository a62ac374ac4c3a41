import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";

/** Writes a file through a temporary sibling and a rename, so readers see the old or the new bytes, never half. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${randomBytes(6).toString("hex")}`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (thrown) {
    rmSync(temp, { force: true });
    throw thrown;
  }
}

/** Replaces a whole folder: the new content is written aside, then swapped in by renames; on failure the old folder stays. */
export function replaceDirAtomic(dir: string, files: ReadonlyMap<string, string | Uint8Array>): void {
  const suffix = randomBytes(6).toString("hex");
  const staging = `${dir}.tmp-${suffix}`;
  const retired = `${dir}.old-${suffix}`;
  try {
    mkdirSync(staging, { recursive: true });
    for (const [relative, data] of files) {
      const target = join(staging, relative);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, data);
    }
    if (existsSync(dir)) renameSync(dir, retired);
    renameSync(staging, dir);
  } catch (thrown) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(dir) && existsSync(retired)) renameSync(retired, dir);
    throw thrown;
  }
  rmSync(retired, { recursive: true, force: true });
}
