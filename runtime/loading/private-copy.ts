import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readlink, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, posix, sep } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A private, append-only copy of verified files, imported by file URL (docs/decisions.md, "Staged files are imported
 * from a private copy"). Tool code must see a file URL, `__dirname` and its files next to it, which a data: URL cannot
 * give; importing the build folder itself would run whatever is there at import time, not what was verified. So the
 * bytes that were checked are written, once each, into a folder only this user can enter (mkdtemp makes it 0700),
 * as read-only files created exclusively: a file in the copy is never rewritten, and a sandboxed child, which may read
 * it, may write nothing. Relative paths are kept, so a bundle's relative import of the SDK module and its assets
 * resolve inside the copy. The folder is removed by dispose() and, at the latest, when this process exits.
 */
export class PrivateCopy {
  /** The folder's real path (the permission model compares the paths Node opens), with no trailing separator. */
  readonly dir: string;
  readonly #written = new Map<string, Promise<string>>();
  readonly #folders = new Set<string>();
  #disposed = false;

  constructor() {
    this.dir = realpathSync(mkdtempSync(join(tmpdir(), "cave-copy-")));
    live.add(this.dir);
    if (!cleanupInstalled) {
      cleanupInstalled = true;
      process.once("exit", () => {
        for (const dir of live) rmSync(dir, { recursive: true, force: true });
      });
    }
  }

  /** The folder as a file URL with a trailing slash. */
  get url(): string {
    return pathToFileURL(`${this.dir}${sep}`).href;
  }

  /** The absolute path `relative` (POSIX, inside the copy) has in it. Throws for a path that leads out of it. */
  pathOf(relative: string): string {
    const normal = posix.normalize(relative);
    if (
      normal.startsWith("../") ||
      normal === ".." ||
      posix.isAbsolute(normal) ||
      normal === "." ||
      relative.includes("\\") ||
      relative.includes("\0")
    ) {
      throw new Error(`${JSON.stringify(relative)} is not a relative path inside the build folder`);
    }
    return join(this.dir, ...normal.split("/"));
  }

  /**
   * Writes `bytes` at `relative` once (later calls for the same path return the first write's path without writing):
   * callers add a path only with the bytes they verified against the lock, which names one hash per path.
   * Written synchronously: a file is a few KB, and each asynchronous step (mkdir, open, write, close) was a round trip
   * through libuv's thread pool on every tool's first use; at 1,000 tools those waits were a fifth of the time.
   */
  add(relative: string, bytes: Uint8Array | string): Promise<string> {
    if (this.#disposed) return Promise.reject(new Error("the private copy was removed"));
    let written = this.#written.get(relative);
    if (written === undefined) {
      const path = this.pathOf(relative);
      try {
        this.#folder(dirname(path));
        // "wx": never through an existing file or link; 0o400: read-only, for this user only.
        writeFileSync(path, bytes, { flag: "wx", mode: 0o400 });
      } catch (thrown) {
        return Promise.reject(thrown);
      }
      written = Promise.resolve(path);
      this.#written.set(relative, written);
    }
    return written;
  }

  /** Makes a folder of the copy (0700) once. */
  #folder(path: string): void {
    if (this.#folders.has(path)) return;
    mkdirSync(path, { recursive: true, mode: 0o700 });
    this.#folders.add(path);
  }

  /**
   * Links `relative` to a folder outside the copy (an installed external package, verified by the caller), once: so a
   * bundle's bare import of it resolves from the copy as from the project root. Node follows the link to the real
   * folder, from which the package's own imports resolve.
   */
  link(relative: string, target: string): Promise<string> {
    return this.#once(relative, (path) => symlink(target, path, "dir")).then(async (path) => {
      if ((await readlink(path)) !== target) throw new Error(`${relative} in the private copy already links elsewhere`);
      return path;
    });
  }

  /** Creates `relative` once, its folder 0700; a later call gets the first one's path (a failed one is tried again). */
  #once(relative: string, create: (path: string) => Promise<void>): Promise<string> {
    if (this.#disposed) return Promise.reject(new Error("the private copy was removed"));
    let written = this.#written.get(relative);
    if (written === undefined) {
      const path = this.pathOf(relative);
      written = (async () => {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await create(path);
        return path;
      })();
      this.#written.set(relative, written);
      written.catch(() => this.#written.delete(relative));
    }
    return written;
  }

  /** Removes the folder (files being imported stay readable until closed; nothing is added after this). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    live.delete(this.dir);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const live = new Set<string>();
let cleanupInstalled = false;
