import { join, posix } from "node:path";
import type { CaveConfig, FileContent } from "../types.js";
import { error, type Diagnostic } from "../diagnostics.js";
import { planReplacement, replaceAtomically, swapIn } from "./atomic.js";
import type { WriteReply } from "./write-job.js";
import { BuildFolderWriter } from "./writer.js";

export interface EmitInput {
  readonly config: CaveConfig;
  readonly lockText: string;
  /** Build folder files by path relative to the project root (each inside config.outDir). */
  readonly files: ReadonlyMap<string, FileContent>;
}

/**
 * Writes the build folder and the lock together: both new, or (on failure) both as they were. Builds do not call
 * this: every writing build (cave build, --frozen) emits through beginEmit(). It is the plain statement of what
 * beginEmit().finish() must end as, which test/compiler/emit.test.ts holds the tuned path to.
 */
export function emit(root: string, input: EmitInput): Diagnostic[] {
  try {
    const inside = new Map([...input.files].map(([path, text]) => [insideOutDir(input.config, path), text] as const));
    replaceAtomically(join(root, input.config.outDir), inside, join(root, input.config.lock), input.lockText);
    return [];
  } catch (thrown) {
    return [writeFailure(root, thrown)];
  }
}

/** Build-folder files as a build has them: text by path relative to the root, and the sha256 of (some of) them. */
export interface FolderFiles {
  readonly files: ReadonlyMap<string, FileContent>;
  /**
   * sha256 of files by the same paths: a file the current build folder already holds with exactly those bytes is
   * kept (hard-linked into the new folder, after its bytes are checked) instead of written again.
   */
  readonly hashes: Readonly<Record<string, string>>;
}

/** An emit begun before the lock exists (beginEmit). */
export interface PendingEmit {
  /** Starts writing these files aside (on the writer thread); nothing is visible until finish(). */
  ahead(files: FolderFiles): void;
  /**
   * Ends it as `emit()` would: the build folder ends up holding exactly `files` (what was written ahead and differs,
   * or is not among them, is rewritten or removed), then the folder and the lock are swapped in together, or nothing
   * changes (CAVE8001).
   */
  finish(output: FolderFiles & { readonly lockText: string }): Promise<Diagnostic[]>;
  /** Gives it up: whatever was written aside is removed. Does nothing once finish() has run, so a build can always call it. */
  abort(): Promise<void>;
}

/**
 * Starts the emit of a writing build early: files known before the lock (the staged bundles, then the validators) are
 * written aside by a worker thread (writer.ts) while this thread evaluates and plans, since creating thousands of
 * files is most of what emit costs. Files the current build folder holds byte for byte are hard-linked, not written.
 */
export function beginEmit(root: string, config: CaveConfig): PendingEmit {
  const replacement = planReplacement(join(root, config.outDir), join(root, config.lock));
  const writer = new BuildFolderWriter();
  /** What was handed to the writer, by path relative to the build folder. */
  const written = new Map<string, FileContent>();
  const replies: Array<Promise<WriteReply>> = [];
  let ended = false;
  const write = (
    { files, hashes }: FolderFiles,
    keep: (relative: string, text: FileContent) => boolean = () => true,
    replacing = false,
  ) => {
    const entries: Array<[string, FileContent]> = [];
    const known: Array<[string, string]> = [];
    for (const [path, text] of files) {
      const relative = insideOutDir(config, path);
      if (!keep(relative, text)) continue;
      entries.push([relative, text]);
      written.set(relative, text);
      const hash = hashes[path];
      if (hash !== undefined) known.push([relative, hash]);
    }
    // The last job is given even with no files: it makes the (perhaps empty) folder that is swapped in.
    if (entries.length > 0 || replacing)
      replies.push(
        writer.run({
          write: replacement.staging,
          files: entries,
          reuse: { from: replacement.dir, hashes: known },
          replacing,
        }),
      );
  };
  /** Waits for every job given so far; the first failure, if any. */
  const settle = async () =>
    (await Promise.all(replies.splice(0))).find((reply): reply is Extract<WriteReply, { ok: false }> => !reply.ok);
  const discard = async () => {
    await settle();
    await writer.run({ remove: [replacement.staging, replacement.fileTemp] });
  };
  const complete = async ({
    files,
    hashes,
    lockText,
  }: FolderFiles & { readonly lockText: string }): Promise<Diagnostic[]> => {
    const wanted = new Set([...files.keys()].map((path) => insideOutDir(config, path)));
    const unwanted = [...written.keys()].filter((relative) => !wanted.has(relative));
    write({ files, hashes }, (relative, text) => written.get(relative) !== text, true);
    if (unwanted.length > 0)
      replies.push(writer.run({ remove: unwanted.map((relative) => join(replacement.staging, relative)) }));
    const failed = await settle();
    if (failed) {
      await discard();
      return [writeFailure(root, new Error(failed.message))];
    }
    try {
      swapIn(replacement, lockText);
    } catch (thrown) {
      return [writeFailure(root, thrown)];
    }
    await writer.run({ remove: [replacement.retired] });
    return [];
  };
  return {
    ahead(files) {
      if (!ended) write(files);
    },
    async finish(output) {
      ended = true;
      try {
        return await complete(output);
      } catch (thrown) {
        await discard();
        throw thrown;
      } finally {
        writer.close();
      }
    },
    async abort() {
      if (ended) return;
      ended = true;
      try {
        await discard();
      } finally {
        writer.close();
      }
    },
  };
}

/** Build-folder files by path relative to the build folder; a path outside it is a fault of the compiler. */
function insideOutDir(config: CaveConfig, path: string): string {
  const relative = posix.relative(config.outDir, path);
  if (relative.startsWith("..")) throw new Error(`internal: ${path} is outside the build folder`);
  return relative;
}

function writeFailure(root: string, thrown: unknown): Diagnostic {
  const message = thrown instanceof Error ? thrown.message.replaceAll(root, ".") : String(thrown);
  return error(
    "CAVE8001",
    `could not write the build output: ${message}`,
    "Check that the project folder is writable and has free space; nothing was half-written.",
  );
}
