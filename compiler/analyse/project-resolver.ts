import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { ts } from "./typescript.js";
import { findWorkspace, workspacePackageOf, type Workspace } from "../workspaces.js";

interface TsconfigFacts {
  readonly options: ts.CompilerOptions;
  /** Whether a bare specifier may name a project file: `paths` or `baseUrl` is set. */
  readonly aliases: boolean;
}

const NO_TSCONFIG: TsconfigFacts = { options: {}, aliases: false };

/** The package name a bare specifier starts with (`@scope/name` or `name`). */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * Resolves bare specifiers to project files as the bundler will: tsconfig `paths` and `baseUrl` (from the nearest
 * tsconfig.json, with its `extends`, as esbuild reads it) and packages of the project's npm workspace (project
 * code, reached through their node_modules symlink). Installed packages stay packages: undefined. Paths are POSIX,
 * relative to the root (`../` only into a workspace package).
 */
export class ProjectResolver {
  private readonly tsconfigs = new Map<string, TsconfigFacts>();
  private readonly resolved = new Map<string, string | undefined>();
  private workspace: Workspace | null | undefined;

  constructor(private readonly root: string) {}

  resolve(from: string, specifier: string): string | undefined {
    const containing = join(this.root, from);
    const dir = dirname(containing);
    const key = `${dir}\u0000${specifier}`;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const facts = this.tsconfigFor(dir);
    let found: string | undefined;
    if (facts.aliases || this.members()?.byName.has(packageName(specifier))) {
      const options: ts.CompilerOptions = {
        ...facts.options,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        module: ts.ModuleKind.ESNext,
        allowImportingTsExtensions: true,
      };
      const result = ts.resolveModuleName(specifier, containing, options, ts.sys).resolvedModule;
      if (result && !result.resolvedFileName.endsWith(".d.ts")) found = this.projectPath(result.resolvedFileName);
    }
    this.resolved.set(key, found);
    return found;
  }

  /** Whether a root-relative path that leads out of the root lies in a package of the project's npm workspace. */
  inWorkspacePackage(file: string): boolean {
    // The file itself may not exist yet under this name ("./x.js" for x.ts): its folder decides.
    const path = join(this.root, file);
    try {
      return workspacePackageOf(this.members(), join(realpathSync(dirname(path)), basename(path))) !== undefined;
    } catch {
      return false;
    }
  }

  private projectPath(file: string): string | undefined {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return undefined;
    }
    const rootReal = realpathSync(this.root);
    const rel = relative(rootReal, real);
    const parts = rel.split(sep);
    const insideRoot = rel !== "" && !isAbsolute(rel) && parts[0] !== "..";
    if (insideRoot) return parts.includes("node_modules") ? undefined : parts.join("/");
    return workspacePackageOf(this.members(), real) ? parts.join("/") : undefined;
  }

  private members(): Workspace | null {
    if (this.workspace === undefined) {
      try {
        this.workspace = findWorkspace(this.root);
      } catch {
        this.workspace = null;
      }
    }
    return this.workspace;
  }

  private tsconfigFor(dir: string): TsconfigFacts {
    const known = this.tsconfigs.get(dir);
    if (known) return known;
    let facts = NO_TSCONFIG;
    const path = ts.findConfigFile(dir, ts.sys.fileExists, "tsconfig.json");
    if (path) {
      const read = ts.readConfigFile(path, ts.sys.readFile);
      if (!read.error) {
        // Only compiler options matter: listing the files the tsconfig includes would walk the whole tree.
        const host: ts.ParseConfigHost = {
          useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
          fileExists: ts.sys.fileExists,
          readFile: ts.sys.readFile,
          readDirectory: () => [],
        };
        const { options } = ts.parseJsonConfigFileContent(read.config, host, dirname(path), undefined, path);
        facts = { options, aliases: options.paths !== undefined || options.baseUrl !== undefined };
      }
    }
    this.tsconfigs.set(dir, facts);
    return facts;
  }
}
