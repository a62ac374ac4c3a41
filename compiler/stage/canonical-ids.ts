import { readFileSync } from "node:fs";
import { join } from "node:path";
import { place, type Placement, type Roots } from "./placement.js";

export interface CanonicalIds {
  /** Real absolute path -> canonical id, for every file inside the project, the SDK or a node_modules folder. */
  readonly ids: ReadonlyMap<string, string>;
  /** Files outside all of those (refused). */
  readonly outside: ReadonlySet<string>;
}

/**
 * Gives every file a canonical id. When one package name is installed in more than one folder (two
 * versions, or a nested copy), the last-node_modules rule would give different files one id; those
 * packages get `node_modules/<name>@<version>/<subpath>`. Files that still share an id with different
 * bytes (two copies of one version, one of them patched; a project folder named like the SDK's) get
 * `#<first 12 hex of their sha256>` appended. Identical bytes may share an id: `files` records the same
 * hash either way. Every choice depends on the whole set of files, never on the order they were seen.
 */
export function assignCanonicalIds(
  files: Iterable<string>,
  roots: Roots,
  hashOf: (file: string) => string,
): CanonicalIds {
  const placed = new Map<string, Placement>();
  const packageDirs = new Map<string, Set<string>>();
  for (const file of files) {
    if (placed.has(file)) continue;
    const placement = place(file, roots);
    placed.set(file, placement);
    if (placement.kind === "package") {
      const dirs = packageDirs.get(placement.name) ?? new Set<string>();
      dirs.add(placement.dir);
      packageDirs.set(placement.name, dirs);
    }
  }

  const versions = new Map<string, string | undefined>();
  const versionOf = (dir: string) => {
    if (!versions.has(dir)) versions.set(dir, readVersion(dir));
    return versions.get(dir);
  };
  const outside = new Set<string>();
  const byId = new Map<string, string[]>();
  for (const [file, placement] of placed) {
    if (placement.kind === "outside") {
      outside.add(file);
      continue;
    }
    let id = placement.id;
    if (placement.kind === "package" && (packageDirs.get(placement.name)?.size ?? 0) > 1) {
      const version = versionOf(placement.dir);
      if (version !== undefined) id = `node_modules/${placement.name}@${version}/${placement.subpath}`;
    }
    byId.set(id, [...(byId.get(id) ?? []), file]);
  }

  const ids = new Map<string, string>();
  for (const [id, group] of byId) {
    const distinct = new Set(group.map(hashOf));
    for (const file of group)
      ids.set(
        file,
        distinct.size > 1
          ? `${id}#${hashOf(file)
              .replace(/^sha256-/, "")
              .slice(0, 12)}`
          : id,
      );
  }
  return { ids, outside };
}

function readVersion(packageDir: string): string | undefined {
  try {
    const version = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: unknown })
      .version;
    return typeof version === "string" && /^[0-9A-Za-z.+-]+$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}
