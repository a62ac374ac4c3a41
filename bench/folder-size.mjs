import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Bytes of every file below `dir` (links counted as links, not followed), and how many files. */
export function folderSize(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = folderSize(path);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += lstatSync(path).size;
      files++;
    }
  }
  return { bytes, files };
}
