import { rmSync } from "node:fs";
import { writeTree } from "./atomic.js";

/** Work for the build-folder writer (writer.ts): files to write under a folder (or link from the folder they replace), or paths to remove. */
export type WriteJob =
  | {
      readonly write: string;
      readonly files: ReadonlyArray<readonly [string, string | Uint8Array]>;
      /** The folder being replaced, and the sha256 of the new files by relative path: byte-identical files are linked. */
      readonly reuse?: { readonly from: string; readonly hashes: ReadonlyArray<readonly [string, string]> };
      /** Some of the files exist already (an earlier job wrote them): they are replaced, never written through. */
      readonly replacing?: boolean;
    }
  | { readonly remove: readonly string[] };

export type WriteReply = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Does one job on the current thread; a failure (no space, no permission) is the reply, never a throw. */
export function performWrite(job: WriteJob): WriteReply {
  try {
    if ("write" in job)
      writeTree(
        job.write,
        job.files,
        job.reuse ? { from: job.reuse.from, hashes: new Map(job.reuse.hashes) } : undefined,
        job.replacing === true,
      );
    else for (const path of job.remove) rmSync(path, { recursive: true, force: true });
    return { ok: true };
  } catch (thrown) {
    return { ok: false, message: thrown instanceof Error ? thrown.message : String(thrown) };
  }
}
