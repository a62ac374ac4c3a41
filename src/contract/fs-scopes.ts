/**
 * Filesystem scopes of `sandboxProfile.fs` (docs/sandbox.md, "Filesystem scopes"): what a sandboxed tool may read
 * and write, as locked and reviewed. One parser for the SDK's rules, the compiler and the runtime, so a scope means
 * the same thing everywhere.
 *
 * A scope is either relative to the project root (`data/orders`) or under a named runtime setting (`$ORDERS_DIR`,
 * `$ORDERS_DIR/archive`): a directory the deploy names in its environment or in createRuntime's `fsRoots`, so no
 * machine's absolute path is ever locked. Read scopes may be directories, files or globs; write scopes only
 * directories.
 */

/** Where a scope's path starts: the project root, or the directory a named runtime setting gives. */
export type ScopeBase = { readonly kind: "project" } | { readonly kind: "setting"; readonly name: string };

export interface FsScope {
  /** The scope as the lock records it: POSIX, no `.` segments, no trailing slash; `.` for the project root itself. */
  readonly text: string;
  readonly base: ScopeBase;
  /** The path under the base, POSIX; "" for the base itself. */
  readonly path: string;
  /** The path holds glob syntax (`*`, `?`, `[`, `{`): it names the files it matches. */
  readonly glob: boolean;
}

/** The locked sandboxProfile.fs: normalised scope texts, sorted and unique. Present in the lock only when one list is not empty. */
export interface LockedFs {
  readonly read: readonly string[];
  readonly write: readonly string[];
}

/** A named runtime setting: an environment-style name (it is also how the tool finds the directory, see docs/sandbox.md). */
export const SCOPE_SETTING_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
const GLOB = /[*?[\]{}]/;
const MAX_SCOPE_LENGTH = 512;

/** Parses one scope as written; `problem` says what is wrong in words that fit after "fs scope <text> ". */
export function parseScope(
  written: unknown,
): { readonly ok: true; readonly scope: FsScope } | { readonly ok: false; readonly problem: string } {
  if (typeof written !== "string" || written === "") return { ok: false, problem: "is not a non-empty path string" };
  if (written.length > MAX_SCOPE_LENGTH) return { ok: false, problem: `is longer than ${MAX_SCOPE_LENGTH} characters` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(written))
    return { ok: false, problem: "holds a backslash or a control character; write POSIX paths with /" };
  // Node's permission flags split their value at commas (sandbox.md, weakness 6): such a path cannot be granted exactly.
  if (written.includes(","))
    return { ok: false, problem: "holds a comma, which Node's permission flags read as a separator" };
  let base: ScopeBase = { kind: "project" };
  let rest = written;
  if (written.startsWith("$")) {
    const slash = written.indexOf("/");
    const name = written.slice(1, slash < 0 ? undefined : slash);
    if (!SCOPE_SETTING_PATTERN.test(name))
      return {
        ok: false,
        problem: `names the runtime setting ${JSON.stringify(name)}, which is not UPPER_SNAKE_CASE (A-Z, 0-9, _, starting with a letter)`,
      };
    base = { kind: "setting", name };
    rest = slash < 0 ? "" : written.slice(slash + 1);
  } else if (written.startsWith("/") || /^[A-Za-z]:/.test(written) || written.startsWith("~")) {
    return {
      ok: false,
      problem:
        "is absolute; a lock never holds this machine's paths: write it relative to the project root, or under a named runtime setting such as $DATA_DIR/orders",
    };
  }
  const segments = rest.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return { ok: false, problem: "leaves its base with .., which a scope may not" };
  const path = segments.join("/");
  const text =
    base.kind === "project" ? (path === "" ? "." : path) : path === "" ? `$${base.name}` : `$${base.name}/${path}`;
  return { ok: true, scope: { text, base, path, glob: GLOB.test(path) } };
}

/** Why a parsed scope cannot be a write scope, or null: write scopes are whole directories below their base's top for the project. */
export function writeScopeProblem(scope: FsScope): string | null {
  if (scope.glob) {
    return "is a glob; write scopes are directories, because a file or a pattern cannot be mounted read-write safely (a write-then-rename fails with EBUSY, SQLite's -wal and -journal files would be lost)";
  }
  if (scope.base.kind === "project" && scope.path === "")
    return "is the whole project (its lock and build folder included); name the directory the tool writes, such as data/orders";
  return null;
}

/** A scope in plain words, for review (cave diff, cave explain): "data/orders (in the project)", "archive under the deploy's $ORDERS_DIR". */
export function describeScope(text: string): string {
  const parsed = parseScope(text);
  if (!parsed.ok) return text;
  const { base, path, glob } = parsed.scope;
  const what = glob ? `the files matching ${path}` : path;
  if (base.kind === "project") return path === "" ? "the whole project folder" : `${what} (in the project)`;
  return path === ""
    ? `the directory the deploy names in $${base.name}`
    : `${what} under the directory the deploy names in $${base.name}`;
}

/** Both lists of a locked fs in plain words: "writes data/orders (in the project) and reads config (in the project)". */
export function describeFs(fs: LockedFs): string {
  const parts: string[] = [];
  if (fs.write.length > 0) parts.push(`writes ${fs.write.map(describeScope).join(", ")}`);
  if (fs.read.length > 0) parts.push(`reads ${fs.read.map(describeScope).join(", ")}`);
  return parts.join(" and ");
}

/** Sorted, unique scope texts (code-unit order, as everything in the lock). */
export function sortedScopes(texts: Iterable<string>): string[] {
  return [...new Set(texts)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The scope texts of a written `sandboxProfile.fs`, normalised, as the lock records them; null when it declares none. Assumes the rules passed. */
export function lockedFs(fs: unknown): LockedFs | null {
  if (typeof fs !== "object" || fs === null) return null;
  const list = (key: "read" | "write") => {
    const value = (fs as Record<string, unknown>)[key];
    return sortedScopes(
      (Array.isArray(value) ? value : [])
        .map((item) => parseScope(item))
        .flatMap((parsed) => (parsed.ok ? [parsed.scope.text] : [])),
    );
  };
  const read = list("read");
  const write = list("write");
  return read.length === 0 && write.length === 0 ? null : { read, write };
}
