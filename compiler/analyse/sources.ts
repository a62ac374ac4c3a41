import { existsSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { ts } from "./typescript.js";
import { describeThrown, error, type Diagnostic } from "../diagnostics.js";
import { CAVE_PACKAGE, type Module } from "./model.js";
import { ProjectResolver } from "./project-resolver.js";

/** How TypeScript maps the extension written in an import to the files it may mean (NodeNext, then bundler-style). */
const EXTENSION_CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx", ".js", ".jsx"],
  ".jsx": [".tsx", ".jsx"],
  ".mjs": [".mts", ".mjs"],
  ".cjs": [".cts", ".cjs"],
  ".ts": [".ts"],
  ".tsx": [".tsx"],
  ".mts": [".mts"],
  ".cts": [".cts"],
};
const EXTENSIONLESS_CANDIDATES = [
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".js",
  "/index.ts",
  "/index.tsx",
  "/index.mts",
  "/index.js",
];

function isRelative(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../");
}

/**
 * The project's modules, each read and parsed at most once, without a type checker. Files outside the build are
 * parsed only when an import between modules leads to them.
 */
export class Sources {
  private readonly texts = new Map<string, string | null>();
  private readonly modules = new Map<string, Module | null>();
  private readonly resolved = new Map<string, string | null>();
  private readonly inBuild: ReadonlySet<string>;
  private readonly broken = new Set<Module>();
  private readonly bare: ProjectResolver;
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly root: string,
    files: readonly string[],
  ) {
    this.inBuild = new Set(files);
    this.bare = new ProjectResolver(root);
  }

  /** The text of a module, or null (with a CAVE3001 diagnostic) when it cannot be read. */
  text(file: string): string | null {
    const known = this.texts.get(file);
    if (known !== undefined) return known;
    let text: string | null = null;
    try {
      text = readFileSync(join(this.root, file), "utf8");
    } catch (thrown) {
      this.diagnostics.push(
        error(
          "CAVE3001",
          `module ${file} could not be read: ${describeThrown(thrown, this.root)}`,
          "Check that the file exists and is readable, or exclude it from the build.",
          { file },
        ),
      );
    }
    this.texts.set(file, text);
    return text;
  }

  /** The parsed module, or null when it cannot be read. Syntax errors are reported (CAVE3002) once, when it is parsed. */
  module(file: string): Module | null {
    const known = this.modules.get(file);
    if (known !== undefined) return known;
    const text = this.text(file);
    let module: Module | null = null;
    if (text !== null) {
      // The syntax tree a ts-morph Project would hold (its compilerNode: TypeScript's parser at the latest target,
      // with parent links, the script kind from the extension), without the Project: only the tree is read, and the
      // Project's bookkeeping per file cost about a third as much as parsing it.
      const sf = ts.createSourceFile(join(this.root, file), text, ts.ScriptTarget.Latest, true);
      const imported = new Map<string, Module | null>();
      module = {
        file,
        sf,
        inBuild: this.inBuild.has(file),
        imported: (specifier) => {
          if (!imported.has(specifier)) imported.set(specifier, this.importedBy(file, specifier));
          return imported.get(specifier)!;
        },
      };
      this.reportSyntaxErrors(module);
    }
    this.modules.set(file, module);
    return module;
  }

  private importedBy(file: string, specifier: string): Module | null {
    if (specifier === CAVE_PACKAGE || specifier.startsWith("node:")) return null;
    const target = isRelative(specifier) ? this.resolve(file, specifier) : this.bare.resolve(file, specifier);
    return target === undefined ? null : this.module(target);
  }

  /**
   * The module a relative import names, resolved as TypeScript does ("./shared.js" means ./shared.ts),
   * or undefined for a file that does not exist inside the project (or a package of its npm workspace).
   */
  private resolve(from: string, specifier: string): string | undefined {
    const target = posix.normalize(posix.join(posix.dirname(from), specifier));
    if ((target === ".." || target.startsWith("../")) && !this.bare.inWorkspacePackage(target)) return undefined;
    const known = this.resolved.get(target);
    if (known !== undefined) return known ?? undefined;
    const extension = posix.extname(target);
    const candidates = EXTENSION_CANDIDATES[extension]
      ? EXTENSION_CANDIDATES[extension]!.map((ext) => target.slice(0, -extension.length) + ext)
      : EXTENSIONLESS_CANDIDATES.map((ext) => target + ext);
    const found = candidates.find((file) => this.exists(file)) ?? null;
    this.resolved.set(target, found);
    return found ?? undefined;
  }

  private exists(file: string): boolean {
    if (this.inBuild.has(file) || this.modules.get(file)) return true;
    const path = join(this.root, file);
    return existsSync(path) && statSync(path).isFile();
  }

  /** Whether the module parsed without syntax errors: reading definitions from a broken tree would report noise. */
  parses(module: Module): boolean {
    return !this.broken.has(module);
  }

  private reportSyntaxErrors(module: Module): void {
    // The parser's own findings; the public API only exposes them through a type-checking Program.
    const parseDiagnostics =
      (module.sf as ts.SourceFile & { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
    if (parseDiagnostics.length > 0) this.broken.add(module);
    for (const found of parseDiagnostics) {
      const { line, character } = module.sf.getLineAndCharacterOfPosition(found.start);
      const message = ts.flattenDiagnosticMessageText(found.messageText, " ");
      this.diagnostics.push(
        error(
          "CAVE3002",
          `syntax error in ${module.file}: ${message}`,
          "Fix the syntax: the build reads tools from the source text and cannot read a module that does not parse.",
          { file: module.file, line: line + 1, column: character + 1 },
        ),
      );
    }
  }
}
