import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256 } from "../src/contract/hash.js";
import type { LockedTool } from "../src/contract/lock.js";
import { RuntimeError } from "./errors.js";
import { thrownMessage } from "./thrown-message.js";
import { loadValidator, type CompiledValidator } from "./validator-module.js";


type Namespace = Readonly<Record<string, unknown>>;

/**
 * Lazy, verified loading of what the lock points at. Nothing is read at start-up: a tool's bundle
 * and validators are read, hashed against the lock and imported from the verified bytes (a data:
 * URL, so a file swapped after the check is never evaluated) the first time the tool is used, and
 * kept per file so tools sharing a bundle or a schema load it once. A failed load is not kept: a
 * repaired deploy recovers without a restart.
 */
export class Loader {
  private readonly bundles = new Map<string, Promise<Namespace>>();
  private readonly validators = new Map<string, Promise<CompiledValidator>>();
  /** Validators already loaded, by the lock's validation entry, for the synchronous fast path. */
  private readonly loaded = new WeakMap<object, CompiledValidator>();

  constructor(private readonly root: string) {}

  bundle(name: string, tool: LockedTool): Promise<Namespace> {
    const { bundle: path, sha256: expected } = tool.source;
    const key = `${path}\0${expected}`;
    let pending = this.bundles.get(key);
    if (pending === undefined) {
      pending = this.importBundle(name, path, expected);
      this.bundles.set(key, pending);
      pending.catch(() => this.bundles.delete(key));
    }
    return pending;
  }

  /** The validator for a lock entry if it is already loaded (most calls), else undefined. */
  loadedValidator(validation: object): CompiledValidator | undefined {
    return this.loaded.get(validation);
  }

  async validator(name: string, side: "input" | "output", validation: { readonly module: string; readonly sha256: string }): Promise<CompiledValidator> {
    const validator = await this.validatorFile(name, side, validation.module, validation.sha256);
    this.loaded.set(validation, validator);
    return validator;
  }

  private validatorFile(name: string, side: "input" | "output", module: string, expected: string): Promise<CompiledValidator> {
    const key = `${module}\0${expected}`;
    let pending = this.validators.get(key);
    if (pending === undefined) {
      pending = loadValidator(this.root, module, expected).catch((thrown: unknown) => {
        if (thrown instanceof RuntimeError) throw new RuntimeError(thrown.code, `tool "${name}" (${side}): ${thrown.message}`);
        throw new RuntimeError("LOCK_MISMATCH", `tool "${name}" (${side}): validator module ${module} could not be loaded (${thrownMessage(thrown).split(this.root).join("<root>")}); rebuild with cave build`);
      });
      this.validators.set(key, pending);
      pending.catch(() => this.validators.delete(key));
    }
    return pending;
  }

  private async importBundle(name: string, path: string, expected: string): Promise<Namespace> {
    const bytes = await readVerified(this.root, path, expected, `tool "${name}": its staged bundle`);
    return (await import(`data:text/javascript;base64,${bytes.toString("base64")}`)) as Namespace;
  }
}

/** Reads a file the lock names and checks its sha256, or throws LOCK_MISMATCH naming `what` and the file. */
export async function readVerified(root: string, path: string, expected: string, what: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(root, path));
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    const why = code === "ENOENT" || code === "ENOTDIR" ? "is missing" : `could not be read (${typeof code === "string" ? code : "read error"})`;
    throw new RuntimeError("LOCK_MISMATCH", `${what} ${path} ${why}; deploy cave.lock together with its build folder`);
  }
  const actual = sha256(bytes);
  if (actual !== expected) {
    throw new RuntimeError("LOCK_MISMATCH", `${what} ${path} does not match the lock (the lock says ${expected}, the file hashes to ${actual}); rebuild with cave build and deploy the lock with its build folder`);
  }
  return bytes;
}

