import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import fg from "fast-glob";

/** The npm workspace a project belongs to: its packages are the project's own code, not installed packages. */
export interface Workspace {
  /** Real path of the folder whose package.json declares "workspaces". */
  readonly root: string;
  /** Real path of each member package's folder -> its package name. */
  readonly packages: ReadonlyMap<string, string>;
  /** Package name -> real path of its folder. */
  readonly byName: ReadonlyMap<string, string>;
}

function readManifest(dir: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** npm's two spellings: `"workspaces": ["packages/*"]` and `"workspaces": { "packages": [...] }`. */
function workspaceGlobs(manifest: Record<string, unknown>): string[] | undefined {
  const value = manifest.workspaces;
  const list = Array.isArray(value)
    ? value
    : typeof value === "object" && value !== null
      ? (value as { packages?: unknown }).packages
      : undefined;
  return Array.isArray(list) && list.every((g) => typeof g === "string") ? (list as string[]) : undefined;
}

/**
 * The npm workspace whose members include the project root (or whose root it is), found by walking up from it;
 * null when there is none. A package.json with "workspaces" above a project that is not one of its members does not
 * count: only what the workspace itself declares is project code.
 */
export function findWorkspace(projectRoot: string): Workspace | null {
  // Not cached across builds: a long-lived process (a watch, tests) may see members come and go.
  const project = realpathSync(projectRoot);
  let result: Workspace | null = null;
  for (let dir = project; ; dir = dirname(dir)) {
    const manifest = readManifest(dir);
    const globs = manifest && workspaceGlobs(manifest);
    if (globs) {
      const packages = members(dir, globs);
      if (dir === project || packages.has(project))
        result = { root: dir, packages, byName: new Map([...packages].map(([path, name]) => [name, path])) };
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return result;
}

function members(root: string, globs: readonly string[]): Map<string, string> {
  const dirs = fg.sync(
    globs.map((g) => `${g.replace(/\/+$/, "")}/package.json`),
    { cwd: root, onlyFiles: true, ignore: ["**/node_modules/**"], followSymbolicLinks: false },
  );
  const packages = new Map<string, string>();
  for (const manifestPath of dirs.sort()) {
    const dir = join(root, dirname(manifestPath));
    const name = readManifest(dir)?.name;
    if (typeof name === "string" && name !== "" && existsSync(dir)) packages.set(realpathSync(dir), name);
  }
  return packages;
}

/** The member package a real path lies in (outside any node_modules inside it), with the path below its folder. */
export function workspacePackageOf(
  workspace: Workspace | null | undefined,
  file: string,
): { readonly name: string; readonly dir: string; readonly subpath: string } | undefined {
  if (!workspace) return undefined;
  let best: { name: string; dir: string; subpath: string } | undefined;
  for (const [dir, name] of workspace.packages) {
    const rel = relative(dir, file);
    if (
      rel === "" ||
      rel === ".." ||
      rel.startsWith(`..${sep}`) ||
      isAbsolute(rel) ||
      rel.split(sep).includes("node_modules")
    )
      continue;
    // Nested members: the innermost package owns the file.
    if (!best || dir.length > best.dir.length) best = { name, dir, subpath: rel.split(sep).join("/") };
  }
  return best;
}
