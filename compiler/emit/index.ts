import { join, posix } from "node:path";
import type { CaveConfig } from "../types.js";
import { error, type Diagnostic } from "../diagnostics.js";
import { replaceAtomically } from "./atomic.js";

export interface EmitInput {
  readonly config: CaveConfig;
  readonly lockText: string;
  /** Build folder files by path relative to the project root (each inside config.outDir). */
  readonly files: ReadonlyMap<string, string>;
  /**
   * sha256 of (some of) the files, by the same paths: a file the current build folder already holds with exactly
   * those bytes is kept (hard-linked into the new folder) instead of written again. The result is the same files.
   */
  readonly hashes?: Readonly<Record<string, string>>;
}

/** Writes the build folder and the lock together: both new, or (on failure) both as they were. */
export function emit(root: string, input: EmitInput): Diagnostic[] {
  const inside = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const [path, data] of input.files) {
    const relative = posix.relative(input.config.outDir, path);
    if (relative.startsWith("..")) throw new Error(`internal: ${path} is outside the build folder`);
    inside.set(relative, data);
    const hash = input.hashes?.[path];
    if (hash !== undefined) hashes.set(relative, hash);
  }
  try {
    replaceAtomically(join(root, input.config.outDir), inside, join(root, input.config.lock), input.lockText, hashes);
    return [];
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message.replaceAll(root, ".") : String(thrown);
    return [error("CAVE8001", `could not write the build output: ${message}`, "Check that the project folder is writable and has free space; nothing was half-written.")];
  }
}
