import { commentForm } from "./bundle-file.js";

/**
 * esbuild names each file of a bundle by its path relative to the working directory: in the comment
 * line before the file's code, and as the key of the wrapper around a CommonJS or lazily initialised
 * module. For files outside the project that path depends on this machine's layout, so those exact
 * lines are rewritten to the canonical id. Only whole lines of those two shapes are touched.
 */
export function rewritePathLines(code: string, renames: ReadonlyMap<string, string>): string {
  if (renames.size === 0) return code;
  const comments = new Map([...renames].map(([pretty, id]) => [commentForm(pretty), commentForm(id)]));
  const lines = code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("// ")) {
      const id = comments.get(line.slice(3));
      if (id !== undefined) lines[i] = `// ${id}`;
      continue;
    }
    if (i > 0 && WRAPPER_OPEN.test(lines[i - 1] as string)) {
      const match = WRAPPER_KEY.exec(line);
      if (!match) continue;
      const [, indent, quoted, rest] = match as unknown as [string, string, string, string];
      const key = parseQuoted(quoted);
      const id = key === undefined ? undefined : renames.get(key);
      if (id !== undefined) lines[i] = `${indent}${JSON.stringify(id)}${rest}`;
    }
  }
  return lines.join("\n");
}

function parseQuoted(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

const WRAPPER_OPEN = /(?:^|[\s=(,])__(?:commonJS|esm)\(\{$/;
const WRAPPER_KEY = /^(\s*)("(?:[^"\\]|\\.)*")(\(.*)$/;

/** The machine-dependent paths still present in a bundle after rewriting (a bug guard: they must be none). */
export function leftoverPaths(
  code: string,
  renames: ReadonlyMap<string, string>,
  absolute: readonly string[],
): string[] {
  const left: string[] = [];
  for (const pretty of renames.keys()) {
    if (pretty.startsWith("../") && (code.includes(pretty) || code.includes(commentForm(pretty)))) left.push(pretty);
  }
  for (const dir of absolute) if (dir.length > 1 && code.includes(`${dir}/`)) left.push(dir);
  return left;
}
