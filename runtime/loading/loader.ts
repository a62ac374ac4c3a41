import { readFile } from "node:fs/promises";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256 } from "../../src/contract/hash.js";
import type { LockedExternal, LockedSdk, LockedTool } from "../../src/contract/lock.js";
import { checkExternals, readManifest, topLevel, type ExternalsManifest, type InstalledExternal } from "./externals.js";
import type { StagedFiles } from "../dispatch/types.js";
import { RuntimeError } from "../errors.js";
import { PrivateCopy } from "./private-copy.js";
import { thrownMessage } from "../../src/contract/thrown-message.mjs";
import { loadTieredValidator, type CompiledValidator } from "./validator-module.js";
import { StackMapper } from "../stack/stack-mapper.js";
import { importModule } from "./import-module.js";

type Namespace = Readonly<Record<string, unknown>>;

/** A precompiled validator as a tool's lock entry names it: the schema it was built from, and its file. */
export interface LockedValidatorEntry {
  readonly jsonSchema: unknown;
  readonly validation: { readonly module: string; readonly sha256: string };
}

/**
 * Lazy, verified loading of what the lock points at. Nothing is read at start-up: a tool's bundle, the SDK module it
 * imports and its validators are read, hashed against the lock the first time the tool is used; the verified bundle
 * bytes are written to this runtime's private copy (private-copy.ts), from which the bundle is imported by file URL,
 * and a validator's verified bytes are compiled in memory (validator-module.ts): a file swapped in the build folder
 * after the check is never evaluated, and tool code sees a file URL. Everything is
 * kept per file, so tools sharing a bundle, the SDK or a schema load it once. A failed load is not kept: a repaired
 * deploy recovers without a restart.
 */
export class Loader {
  private readonly bundles = new Map<string, Promise<Namespace>>();
  private readonly staged = new Map<string, Promise<string>>();
  private readonly validators = new Map<string, Promise<CompiledValidator>>();
  /** Validators already loaded, by the lock's validation entry, for the synchronous fast path. */
  private readonly loaded = new WeakMap<object, CompiledValidator>();
  private copy: PrivateCopy | undefined;
  private manifest: ExternalsManifest | null | undefined;
  /** Each external checked so far: where it is installed, or null for a platform package not installed here. */
  private readonly checkedExternals = new Map<string, InstalledExternal | null>();
  private readonly stacks = new StackMapper(
    () => this.copy,
    () =>
      [...this.checkedExternals.values()].flatMap((one) => (one === null ? [] : [{ dir: one.real, path: one.path }])),
  );

  constructor(
    private readonly root: string,
    private readonly sdk: LockedSdk | null = null,
    private readonly externals: {
      readonly pins: Readonly<Record<string, LockedExternal>> | undefined;
      readonly lockIntegrity: string;
    } | null = null,
  ) {}

  bundle(name: string, tool: LockedTool): Promise<Namespace> {
    const { bundle: path, sha256: expected } = tool.source;
    const key = `${path}\0${expected}`;
    let pending = this.bundles.get(key);
    if (pending === undefined) {
      pending = this.stageFiles(name, tool).then(
        ({ bundle }) => importModule(pathToFileURL(bundle).href) as Promise<Namespace>,
      );
      this.bundles.set(key, pending);
      pending.catch(() => this.bundles.delete(key));
    }
    return pending;
  }

  /** Verifies the tool's bundle and the SDK module against the lock and puts them in the private copy (once each). */
  async stageFiles(name: string, tool: LockedTool): Promise<StagedFiles> {
    const module = this.sdk?.module;
    // Both are read at once and both settle before the answer (a failed read still pending could fail the next call);
    // the bundle's problem, if any, is the one reported.
    const [bundle, sdk, ...assets] = await Promise.allSettled([
      this.verifiedCopy(tool.source.bundle, tool.source.sha256, `tool "${name}": its staged bundle`),
      module === undefined
        ? Promise.resolve(undefined)
        : this.verifiedCopy(module.path, module.sha256, `tool "${name}": the SDK module its bundle imports`),
      // The files its code reads next to itself: verified and copied before the code runs, like the code.
      ...tool.source.assets.map((asset) => this.verifiedCopy(asset.path, asset.sha256, `tool "${name}": the file`)),
    ]);
    for (const settled of [bundle, sdk, ...assets]) if (settled.status === "rejected") throw settled.reason;
    const paths = (settled: PromiseSettledResult<string | undefined>) =>
      settled.status === "fulfilled" && settled.value !== undefined ? [settled.value] : [];
    const external = await this.linkExternals(name, tool);
    return {
      bundle: (bundle as PromiseFulfilledResult<string>).value,
      readable: [...[bundle, sdk, ...assets].flatMap(paths), ...external],
    };
  }

  /**
   * The external packages the tool imports: their installed versions (and files, with a manifest) checked against the
   * lock, each linked into the private copy's node_modules. Returns what a sandboxed child must be able to read: the
   * links and the packages' real folders (with a trailing separator: everything under them).
   */
  private async linkExternals(name: string, tool: LockedTool): Promise<string[]> {
    const paths = tool.source.externals;
    if (paths.length === 0) return [];
    const lockIntegrity = this.externals?.lockIntegrity ?? "";
    this.manifest ??= readManifest(this.root, lockIntegrity);
    // Each package once per runtime (a manifest check hashes every file of it).
    const unchecked = paths.filter((path) => !this.checkedExternals.has(path));
    const found = checkExternals(this.root, unchecked, this.externals?.pins, this.manifest, `tool "${name}"`);
    for (const one of found) this.checkedExternals.set(one.path, one);
    // A platform package of another OS or CPU (optional in the lock) is not installed here: checked, nothing to link.
    for (const path of unchecked) if (!this.checkedExternals.has(path)) this.checkedExternals.set(path, null);
    const installed = paths
      .map((path) => this.checkedExternals.get(path))
      .filter((one): one is InstalledExternal => one != null);
    const copy = (this.copy ??= new PrivateCopy());
    const links = await Promise.all(topLevel(installed).map((one) => copy.link(`node_modules/${one.name}`, one.real)));
    return [...links, ...installed.map((one) => one.real)].map((path) => `${path}${sep}`);
  }

  /** A tool error's raw V8 stack as the frames an outcome shows (stack/map-stack.ts): original files, project-relative. */
  mapStack(raw: string): Promise<string[]> {
    return this.stacks.map(raw);
  }

  /** Stops using the private copy and removes it (a later load makes a new one). */
  dispose(): void {
    this.copy?.dispose();
    this.copy = undefined;
    this.staged.clear();
    this.bundles.clear();
  }

  private verifiedCopy(path: string, expected: string, what: string): Promise<string> {
    const key = `${path}\0${expected}`;
    let pending = this.staged.get(key);
    if (pending === undefined) {
      pending = readVerified(this.root, path, expected, what).then((bytes) =>
        (this.copy ??= new PrivateCopy()).add(path, bytes),
      );
      this.staged.set(key, pending);
      // Removed synchronously with the rejection's first handler, before any caller sees it.
      const settled = pending;
      pending.catch(() => {
        if (this.staged.get(key) === settled) this.staged.delete(key);
      });
    }
    return pending;
  }

  /** The validator for a lock entry if it is already loaded (most calls), else undefined. */
  loadedValidator(validation: object): CompiledValidator | undefined {
    return this.loaded.get(validation);
  }

  /**
   * The validator of a tool's input or output schema (`locked`: its lock entry's schema and validation), verified
   * against the lock on first use. It starts with the schema's walk interpreted and compiles the emitted walk once
   * the schema is walked often (validator-module.ts, loadTieredValidator).
   */
  async validator(name: string, side: "input" | "output", locked: LockedValidatorEntry): Promise<CompiledValidator> {
    const { validation } = locked;
    const validator = await this.validatorFile(name, side, validation.module, validation.sha256, locked.jsonSchema);
    this.loaded.set(validation, validator);
    return validator;
  }

  private validatorFile(
    name: string,
    side: "input" | "output",
    module: string,
    expected: string,
    jsonSchema: unknown,
  ): Promise<CompiledValidator> {
    const key = `${module}\0${expected}`;
    let pending = this.validators.get(key);
    if (pending === undefined) {
      // Compiled from the verified bytes in memory: no file in the private copy, no module loader.
      pending = Promise.resolve()
        .then(() => loadTieredValidator(this.root, module, expected, jsonSchema))
        .catch((thrown: unknown) => {
          if (thrown instanceof RuntimeError)
            throw new RuntimeError(thrown.code, `tool "${name}" (${side}): ${thrown.message}`);
          throw new RuntimeError(
            "LOCK_MISMATCH",
            `tool "${name}" (${side}): validator module ${module} could not be loaded (${thrownMessage(thrown).split(this.root).join("<root>")}); rebuild with cave build`,
          );
        });
      this.validators.set(key, pending);
      pending.catch(() => this.validators.delete(key));
    }
    return pending;
  }
}

/** Reads a file the lock names and checks its sha256, or throws LOCK_MISMATCH naming `what` and the file. */
export async function readVerified(root: string, path: string, expected: string, what: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(root, path));
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    const why =
      code === "ENOENT" || code === "ENOTDIR"
        ? "is missing"
        : `could not be read (${typeof code === "string" ? code : "read error"})`;
    throw new RuntimeError("LOCK_MISMATCH", `${what} ${path} ${why}; deploy cave.lock together with its build folder`);
  }
  const actual = sha256(bytes);
  if (actual !== expected) {
    throw new RuntimeError(
      "LOCK_MISMATCH",
      `${what} ${path} does not match the lock (the lock says ${expected}, the file hashes to ${actual}); rebuild with cave build and deploy the lock with its build folder`,
    );
  }
  return bytes;
}
