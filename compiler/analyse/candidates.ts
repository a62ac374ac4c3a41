import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** A module that imports from "cave" names it in quotes; anything else is skipped before parsing. */
export const MENTIONS_CAVE = /["']cave["']/;

/**
 * The discovered modules whose text mentions "cave": every module analysis can stage is among them (it skips the
 * others unread). A file that cannot be read is left out here; analysis reports it.
 */
export async function mentioningCave(root: string, files: readonly string[]): Promise<string[]> {
  const texts = await Promise.all(files.map((file) => readFile(join(root, file), "utf8").catch(() => "")));
  return files.filter((_, i) => MENTIONS_CAVE.test(texts[i]!));
}
