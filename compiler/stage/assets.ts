import { readFileSync, realpathSync } from "node:fs";
import { posix } from "node:path";
import fg from "fast-glob";
import { sha256 } from "../../src/contract/hash.js";
import { error, warning, type Diagnostic } from "../diagnostics.js";
import type { CaveConfig, FileContent } from "../types.js";
import type { FoundAsset } from "./locate.js";
import { place, type Roots } from "./placement.js";
import { normalisedText } from "./text.js";

/** Where a file of the project (by canonical id) is staged for tool code to read: the build folder's mirror of the project. */
export function mirrorPath(outDir: string, id: string): string {
  return posix.join(posix.normalize(outDir), "bundles", id);
}

/** A staged asset's content as the build folder holds it: normalised text as a string where that is exact, else bytes. */
export function assetContent(path: string): { content: FileContent; sha256: string } {
  const bytes = normalisedText(readFileSync(path));
  const text = Buffer.from(bytes).toString("utf8");
  const exact = Buffer.byteLength(text) === bytes.length && Buffer.from(text, "utf8").equals(bytes);
  return { content: exact ? text : bytes, sha256: sha256(bytes) };
}

/** The files the config's `assets` globs match, by canonical id, and a diagnostic for each glob that matches none. */
export function configAssets(roots: Roots, config: CaveConfig, diagnostics: Diagnostic[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const glob of config.assets ?? []) {
    const matches = fg
      .sync(glob, {
        cwd: roots.project,
        onlyFiles: true,
        dot: true,
        absolute: true,
        followSymbolicLinks: true,
        ignore: [`${config.outDir}/**`],
      })
      .sort();
    if (matches.length === 0) {
      diagnostics.push(
        error(
          "CAVE4122",
          `the assets glob ${JSON.stringify(glob)} matches no file`,
          "Fix the glob (relative to the project root, e.g. data/*.json or node_modules/figlet/fonts/Standard.flf), or remove it.",
          { file: "cave.config.json" },
        ),
      );
      continue;
    }
    for (const match of matches) {
      const real = realpathSync(match);
      const placement = place(real, roots);
      if (placement.kind === "outside") {
        diagnostics.push(
          error(
            "CAVE4122",
            `the assets glob ${JSON.stringify(glob)} matches ${posix.relative(roots.project, match.split("\\").join("/"))}, a link to a file outside the project`,
            "Assets must be files of the project or of installed packages; copy the file into the project.",
            { file: "cave.config.json" },
          ),
        );
        continue;
      }
      found.set(placement.id, real);
    }
  }
  return found;
}

/** A warning for a static reference that names a folder: its files are not staged (they cannot be known statically). */
export function folderReference(asset: FoundAsset): Diagnostic {
  return warning(
    "CAVE4121",
    `${asset.from} reads the folder ${asset.id} next to itself, whose files are not staged`,
    'List the files the code reads in cave.config.json "assets" (for example "' +
      `${asset.id}/*` +
      '"), so they are staged and pinned with the bundle.',
    { file: asset.from, line: asset.line, column: asset.column },
  );
}
