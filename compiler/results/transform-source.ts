import { readFileSync } from "node:fs";

/**
 * A transform's module text as it is staged: compiler/results/transforms/<id>.mjs without its leading `//` comment
 * lines (what the file says about itself for its readers), byte for byte otherwise. The files sit beside this module
 * in the source tree and in dist/ (copied verbatim by scripts/copy-transforms.mjs: tsc would reprint them).
 */
export function transformSource(id: string): string {
  return stagedText(readFileSync(new URL(`./transforms/${id}.mjs`, import.meta.url), "utf8"));
}

/** The text after the leading comment lines. */
export function stagedText(file: string): string {
  let start = 0;
  while (file.startsWith("//", start)) start = file.indexOf("\n", start) + 1;
  return file.slice(start);
}
