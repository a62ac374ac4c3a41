import { isAbsolute, relative, sep } from "node:path";
import { workspacePackageOf, type Workspace } from "../workspaces.js";

/** Real paths of the two trees a staged graph may draw from besides installed packages. */
export interface Roots {
  /** The project root. */
  readonly project: string;
  /** This package's root: its src/ is the SDK that `import "cave"` stages. */
  readonly sdk: string;
  /** The npm workspace the project is a member of: its packages are project code, staged like installed packages. */
  readonly workspace?: Workspace | null;
}

/** Where a file of a staged graph lives, which decides its canonical id. */
export type Placement =
  | { readonly kind: "project"; readonly id: string }
  | { readonly kind: "sdk"; readonly id: string }
  | {
      readonly kind: "package";
      readonly id: string;
      readonly name: string;
      readonly dir: string;
      readonly subpath: string;
    }
  | { readonly kind: "outside" };

const NODE_MODULES = "node_modules";
/** The SDK is the package's src/ folder (src/ imports nothing else of the package). */
const SDK_SOURCE = "src";

/**
 * Places a real absolute path. Project files keep their path relative to the root; the SDK's files
 * (the package's src/) are `cave/<path in the package>`; a file under any node_modules is `node_modules/<package>/<subpath>`
 * from the LAST node_modules segment, so that hoisting and package-manager layout do not change ids.
 */
export function place(file: string, roots: Roots): Placement {
  const inProject = inside(roots.project, file);
  if (inProject && !inProject.includes(NODE_MODULES)) return { kind: "project", id: inProject.join("/") };
  const inSdk = inside(roots.sdk, file);
  if (inSdk && inSdk[0] === SDK_SOURCE && !inSdk.includes(NODE_MODULES))
    return { kind: "sdk", id: ["cave", ...inSdk].join("/") };
  // A package of the project's npm workspace, reached through its node_modules symlink (esbuild reports real paths):
  // named as installed, so that the id does not depend on where the workspace sits.
  const member = workspacePackageOf(roots.workspace, file);
  if (member)
    return {
      kind: "package",
      id: [NODE_MODULES, member.name, member.subpath].join("/"),
      name: member.name,
      dir: member.dir,
      subpath: member.subpath,
    };
  const segments = file.split(sep);
  const last = segments.lastIndexOf(NODE_MODULES);
  if (last >= 0) {
    const scoped = segments[last + 1]?.startsWith("@") ?? false;
    const nameEnd = last + (scoped ? 3 : 2);
    const name = segments.slice(last + 1, nameEnd);
    const subpath = segments.slice(nameEnd);
    if (name.length === (scoped ? 2 : 1) && subpath.length > 0) {
      return {
        kind: "package",
        id: [NODE_MODULES, ...name, ...subpath].join("/"),
        name: name.join("/"),
        dir: segments.slice(0, nameEnd).join(sep),
        subpath: subpath.join("/"),
      };
    }
  }
  return { kind: "outside" };
}

/** The path segments of `file` below `dir`, or undefined when it is not below it. */
function inside(dir: string, file: string): string[] | undefined {
  const rel = relative(dir, file);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep);
}
