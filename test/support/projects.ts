import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "./golden.js";

const made: string[] = [];

/**
 * Copies a project (a fixture or an example) into a fresh temporary root, `depth` folders deep, with the
 * repository's node_modules linked in so third-party imports (zod...) resolve as they do in the repo.
 * `reverse` creates files in reverse order, so directory listing order differs between copies.
 */
export function copyProject(from: string, options: { depth?: number; reverse?: boolean } = {}): string {
  const base = mkdtempSync(join(tmpdir(), "cave-project-"));
  made.push(base);
  let root = base;
  for (let i = 0; i < (options.depth ?? 0); i++) root = join(root, `level-${i}`);
  mkdirSync(root, { recursive: true });
  copyTree(join(REPO_ROOT, from), root, options.reverse ?? false);
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return root;
}

function copyTree(from: string, to: string, reverse: boolean): void {
  const names = readdirSync(from)
    .filter((name) => name !== "node_modules" && name !== ".cave" && name !== "cave.lock")
    .sort();
  if (reverse) names.reverse();
  for (const name of names) {
    const source = join(from, name);
    if (statSync(source).isDirectory()) {
      mkdirSync(join(to, name));
      copyTree(source, join(to, name), reverse);
    } else cpSync(source, join(to, name));
  }
}

/** A project made of the given files in a fresh temporary root (`depth` folders deep), with the repository's node_modules linked in unless `nodeModules` is false. */
export function writeProject(
  files: Readonly<Record<string, string>>,
  options: { depth?: number; nodeModules?: boolean } = {},
): string {
  const base = mkdtempSync(join(tmpdir(), "cave-project-"));
  made.push(base);
  let root = base;
  for (let i = 0; i < (options.depth ?? 0); i++) root = join(root, `d${i}`);
  mkdirSync(root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  if (options.nodeModules !== false) symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return root;
}

export function removeCopies(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The configuration staging tests pass: every .ts file, default folders. */
export const STAGE_CONFIG = { include: ["**/*.ts"], exclude: [], lock: "cave.lock", outDir: ".cave" } as const;

/** A one-tool module named `name` (a read tool echoing its id), with `extra` lines before it. */
export const toolModule = (name: string, extra = "") => `import { schema, tool } from "cave";
${extra}
export const ${name} = tool({
  name: "${name}",
  description: "Does ${name}.",
  effect: "read",
  input: schema.object({ id: schema.string() }),
  async execute({ id }) {
    return { id };
  },
});
`;
