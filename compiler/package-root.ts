import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "cave";

let cached: string | undefined;

/**
 * The root folder of this package (the one whose package.json is named "cave"), found by walking up
 * from this file. It works from compiler/*.ts (vitest) and from dist/compiler/*.js alike, and the
 * result is a real path so that it compares equal to the paths esbuild reports.
 */
export function packageRoot(): string {
  cached ??= findPackageRoot(fileURLToPath(import.meta.url));
  return cached;
}

/** This package's SDK source entry, which `import ... from "cave"` resolves to in staged bundles. */
export function sdkEntry(): string {
  return join(packageRoot(), "src", "index.ts");
}

export function findPackageRoot(startFile: string): string {
  let dir = dirname(startFile);
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && readName(manifest) === PACKAGE_NAME) return realpathSync(dir);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`no package.json named "${PACKAGE_NAME}" above the compiler: the cave package is incomplete`);
    dir = parent;
  }
}

function readName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}

/** This package's version, read from its own package.json at run time (`cave --version`). */
export function packageVersion(): string {
  const version = (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: unknown })
    .version;
  return String(version);
}

/** `cave@<version>`: how a tool's graph names the SDK it embeds. */
export function sdkGraphId(): string {
  return `${PACKAGE_NAME}@${packageVersion()}`;
}
