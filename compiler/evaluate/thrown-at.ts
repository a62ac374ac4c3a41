import { realpathSync } from "node:fs";
import { join } from "node:path";
import { mapFrames } from "../../runtime/stack/map-stack.js";
import { BundleMap } from "../../runtime/stack/source-map.js";
import type { StageResult } from "../types.js";

/** Where importing a module threw: the original file, line and column, and the package that file belongs to (null for project code). */
export interface ThrownAt {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly package: string | null;
}

/**
 * The innermost frame of a build-time evaluation error's raw stack that is in the staged code (mapped through its
 * bundle's inline source map to the original file) or in an external package, leaving out the SDK module's frames (a
 * frame there is where the SDK reported the problem, not where the module went wrong). Undefined when there is none.
 */
export async function thrownAt(
  stack: string,
  copyDir: string,
  root: string,
  staged: StageResult,
): Promise<ThrownAt | undefined> {
  const bundles = new Map([...staged.modules.values()].map((module) => [module.bundlePath, module.code]));
  const frames = await mapFrames(stack, {
    copyDirs: [copyDir],
    packages: externalDirs(root, staged),
    mapOf: async (path) => {
      const code = bundles.get(path);
      return code === undefined ? undefined : BundleMap.fromBundle(code);
    },
  });
  const frame = frames.find((found) => found.file !== staged.sdkModule?.path);
  return frame === undefined
    ? undefined
    : { file: frame.file, line: frame.line, column: frame.column, package: packageOf(frame.file) };
}

/** The installed external packages' real folders, deepest first, as the runtime names them (runtime/stack/stack-mapper.ts). */
function externalDirs(root: string, staged: StageResult): Array<{ dir: string; path: string }> {
  const out: Array<{ dir: string; path: string }> = [];
  for (const path of Object.keys(staged.externals ?? {})) {
    try {
      out.push({ dir: realpathSync(join(root, ...path.split("/"))), path });
    } catch {
      // Not installed: evaluation reported that already.
    }
  }
  return out.sort((a, b) => b.dir.length - a.dir.length);
}

/**
 * The package a canonical id belongs to: `node_modules/<name>/...` or `node_modules/<name>@<version>/...` (two
 * versions in one graph), scoped names included, from the last node_modules segment; null for a project file.
 */
export function packageOf(id: string): string | null {
  const segments = id.split("/");
  const last = segments.lastIndexOf("node_modules");
  if (last < 0) return null;
  const scoped = segments[last + 1]?.startsWith("@") ?? false;
  const name = segments.slice(last + 1, last + (scoped ? 3 : 2));
  if (name.length !== (scoped ? 2 : 1)) return null;
  const tail = name[name.length - 1]!;
  const at = tail.indexOf("@");
  if (at > 0) name[name.length - 1] = tail.slice(0, at);
  return name.join("/");
}
