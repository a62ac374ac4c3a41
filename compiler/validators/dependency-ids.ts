import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/**
 * Canonical ids for the dependency files a validator bundles (Ajv's runtime helpers, ajv-formats, fast-deep-equal):
 * `node_modules/<package>/<path in the package>`. They name the file by package, never by where this machine
 * installed it, so esbuild's comments and CommonJS wrapper keys are the same on every machine and from any root.
 */
export class DependencyIds {
  readonly #byId = new Map<string, string>();
  readonly #packageOf = new Map<string, { dir: string; name: string }>();

  /** The canonical id of an absolute file path (remembered, so `file()` can find it again). */
  idOf(absolutePath: string): string {
    // require.resolve answers "node:fs" for a built-in: nothing of the kind may end up in a validator.
    if (!isAbsolute(absolutePath))
      throw new Error(`${absolutePath} is not a file of an npm package and cannot be bundled`);
    const pkg = this.#owningPackage(dirname(absolutePath));
    if (!pkg) throw new Error(`${absolutePath.split(sep).slice(-3).join("/")} is not inside an npm package`);
    const id = `node_modules/${pkg.name}/${relative(pkg.dir, absolutePath).split(sep).join("/")}`;
    const known = this.#byId.get(id);
    if (known !== undefined && known !== absolutePath) {
      // Two installed copies of one package file in one bundle would get one id: refuse rather than mix them up.
      throw new Error(`two copies of ${id} are installed; deduplicate node_modules (npm dedupe)`);
    }
    this.#byId.set(id, absolutePath);
    return id;
  }

  /** The absolute path behind an id handed out by `idOf`. */
  file(id: string): string {
    const path = this.#byId.get(id);
    if (path === undefined) throw new Error(`unknown dependency id ${id}`);
    return path;
  }

  #owningPackage(start: string): { dir: string; name: string } | null {
    const cached = this.#packageOf.get(start);
    if (cached) return cached;
    for (let dir = start; ; dir = dirname(dir)) {
      const manifest = join(dir, "package.json");
      if (existsSync(manifest)) {
        // Nested package.json files without a name (e.g. ajv's dist/ markers) do not start a package.
        const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
        if (typeof name === "string" && name.length > 0) {
          const found = { dir, name };
          this.#packageOf.set(start, found);
          return found;
        }
      }
      if (dirname(dir) === dir) return null;
    }
  }
}
