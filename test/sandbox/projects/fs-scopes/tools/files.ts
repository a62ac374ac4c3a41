import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { schema, tool } from "cave";

const ACTIONS = schema.union([
  schema.literal("write"),
  schema.literal("read"),
  schema.literal("list"),
  schema.literal("atomic-write"),
  schema.literal("symlink"),
  schema.literal("mkdir"),
]);

/** What a tool does with files, by argument: relative paths resolve against the project root (the child's working directory). */
function act(action: string, path: string, text: string | undefined): unknown {
  switch (action) {
    case "write":
      writeFileSync(path, text ?? "");
      return { wrote: path };
    case "read":
      return { text: readFileSync(path, "utf8") };
    case "list":
      return { entries: readdirSync(path).sort() };
    case "atomic-write": {
      // Write a temporary file next to the target, then rename it over the target: the usual atomic save. (No fsync:
      // Node 20's permission model disables the descriptor-based fsync, fdatasync, fchmod and futimes.)
      const temporary = `${path}.tmp-${process.pid}`;
      const fd = openSync(temporary, "w");
      writeSync(fd, text ?? "");
      closeSync(fd);
      renameSync(temporary, path);
      return { text: readFileSync(path, "utf8") };
    }
    case "symlink":
      symlinkSync(text ?? "/etc/passwd", path);
      return { linked: path };
    case "mkdir":
      mkdirSync(path, { recursive: true });
      return { made: path };
  }
  throw new Error(`unknown action ${action}`);
}

const INPUT = schema.object({ action: ACTIONS, path: schema.string(), text: schema.optional(schema.string()) });

/** Writes under data/orders, reads config/ and the notes' .txt files. */
export const orderFiles = tool({
  name: "order_files",
  description: "Reads and writes files in its scopes.",
  input: INPUT,
  effect: "write",
  allowRepeat: true,
  sandboxProfile: { fs: { write: ["data/orders"], read: ["config", "notes/*.txt"] } },
  execute({ action, path, text }) {
    return act(action, path, text);
  },
});

/** Writes under the directory the deploy names in CAVE_TEST_EXPORTS. */
export const exportFiles = tool({
  name: "export_files",
  description: "Writes exports under a named runtime setting.",
  input: INPUT,
  effect: "write",
  allowRepeat: true,
  sandboxProfile: { fs: { write: ["$CAVE_TEST_EXPORTS/out"] } },
  execute({ action, path, text }) {
    const base = process.env.CAVE_TEST_EXPORTS ?? "(unset)";
    return { base, ...(act(action, path.replace("$EXPORTS", base), text) as object) };
  },
});

/** No scope at all: every file is refused. */
export const noScope = tool({
  name: "no_scope",
  description: "Tries files without a scope.",
  input: INPUT,
  effect: "write",
  allowRepeat: true,
  execute({ action, path, text }) {
    return act(action, join(path), text);
  },
});
