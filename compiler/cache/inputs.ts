import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256 } from "../../src/contract/hash.js";
import { findWorkspace, type Workspace } from "../workspaces.js";

function findWorkspaceOrNull(root: string): Workspace | null {
  try {
    return findWorkspace(root);
  } catch {
    return null;
  }
}

/**
 * Absolute path -> sha256 of everything that can change a build's output: every graph file (with the hash stage
 * recorded), the discovered modules (analysis reads every one), the project's tsconfig/package.json (esbuild reads
 * them), and the package.json nearest to every graph file (a changed exports map can resolve an import to another file).
 */
export function hashInputs(
  root: string,
  files: readonly string[],
  graphFiles: ReadonlyMap<string, string>,
): Record<string, string> {
  // Graph files were hashed by stage (from the bytes it bundled): those hashes are taken as they are.
  const out: Record<string, string> = Object.fromEntries(graphFiles);
  const add = (path: string) => {
    if (!(path in out) && existsSync(path)) out[path] = sha256(readFileSync(path));
  };
  for (const file of files) add(join(root, file));
  for (const name of ["tsconfig.json", "jsconfig.json", "package.json", "cave.config.json"]) add(join(root, name));
  // Analysis reads tsconfig paths from the nearest tsconfig.json, which may sit above the root (a monorepo's), and
  // which packages count as project code from the npm workspace's package.json.
  for (let dir = dirname(root); !existsSync(join(root, "tsconfig.json")); dir = dirname(dir)) {
    if (existsSync(join(dir, "tsconfig.json"))) {
      add(join(dir, "tsconfig.json"));
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const workspace = findWorkspaceOrNull(root);
  if (workspace) add(join(workspace.root, "package.json"));
  const seenDirs = new Set<string>();
  for (const file of graphFiles.keys()) {
    for (let dir = dirname(file); !seenDirs.has(dir); dir = dirname(dir)) {
      seenDirs.add(dir);
      if (existsSync(join(dir, "package.json"))) {
        add(join(dir, "package.json"));
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  return out;
}
