import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { LockedTool } from "../../src/contract/lock.js";
import type { DispatchRequest, DispatchResult, Dispatcher, OpaqueValidationRequest, OpaqueValidationResult, StagedFiles } from "../dispatch/types.js";
import { RuntimeError } from "../errors.js";
import { childEntry } from "./child-entry.js";
import { sandboxEnv } from "./env.js";
import { childFailure, dataFailure, deathFailure, failure, type Limits } from "./failures.js";
import { namespacePrefix, permissionFlag, sandboxLayers, type SandboxLayers } from "./layers.js";
import { resolveSandboxOptions, type SandboxOptions } from "./options.js";
import { ChildPool, type PoolKey, type PoolStats } from "./pool.js";
import type { Answer, ChildSpec, SandboxChild, Started } from "./sandbox-child.js";
import { RssWatchdog } from "./watchdog.js";

/** The child-process sandbox: a Dispatcher, plus what an operator or a test needs to see and stop it. */
export interface SandboxDispatcher extends Dispatcher {
  /** The layers a child gets on this machine (docs/sandbox.md). */
  layers(): Promise<SandboxLayers>;
  stats(): PoolStats;
  /** The pids of the children alive now. */
  pids(): number[];
  /** Kills every child now (a call in flight reports TOOL_CRASHED); later calls start new children. */
  close(): void;
}

interface Leased {
  readonly child: SandboxChild;
  readonly key: PoolKey;
  readonly start: () => ChildSpec;
}

/** Envelope bytes a frame may carry beyond the value caps (ids, message types, a nested call's outcome and receipt). */
const FRAME_SLACK = 64 * 1024;

/**
 * Creates the sandbox dispatcher: every call of a `sandbox: "required"` tool runs in a restricted
 * child process (docs/sandbox.md) imported from the tool's staged, hash-pinned bundle. Nothing starts
 * until the first call. Failures come back as typed outcomes; nothing is thrown.
 */
export function createSandboxDispatcher(options?: SandboxOptions): SandboxDispatcher {
  const resolved = resolveSandboxOptions(options);
  const pool = new ChildPool(resolved, new RssWatchdog(resolved.maxRssMb * 1_048_576));
  const limits: Limits = { heapMb: resolved.heapMb, maxRssMb: resolved.maxRssMb, maxOutputBytes: resolved.maxOutputBytes };
  const maxFrameBytes = Math.max(resolved.maxInputBytes, resolved.maxOutputBytes) + FRAME_SLACK;
  let prefix: Promise<readonly string[] | null> | undefined;
  let namespace: readonly string[] | null = null;
  const toolKeys = new WeakMap<LockedTool, { readonly root: string; readonly key: string }>();
  /** How to start another child for a tool key (for its spare), as its last start-up resolved it. */
  const starters = new Map<string, () => ChildSpec>();

  /**
   * A warm or new child for this run and tool, started; or why there is none. `onLease` learns the
   * child as soon as it is chosen, before it is ready, so a deadline can kill it during start-up.
   */
  async function childFor(request: DispatchRequest | OpaqueValidationRequest, signal: AbortSignal, onLease: (leased: Leased) => void): Promise<Leased | (DispatchResult & { ok: false })> {
    const { name, tool } = request;
    const key = poolKey(request);
    // The common case, a warm child of this run (or a spare that is ready): nothing to wait for.
    const warm = pool.warm(key);
    if (warm !== undefined) {
      // A warm child exists only after a start-up for this tool key, which left its starter here.
      const leased: Leased = { child: warm, key, start: starters.get(key.tool)! };
      onLease(leased);
      return leased;
    }
    if (tool.sandbox.network !== false) {
      return failure("NETWORK_REFUSED", `tool ${JSON.stringify(name)} asks for network access (sandboxProfile.network: true), which is unbounded egress and fails closed because scoped egress does not exist yet; it was not run. Remove network: true`);
    }
    const flag = permissionFlag();
    if (flag === null) return failure("SANDBOX_UNAVAILABLE", `tool ${JSON.stringify(name)} needs Node's permission model, which Node ${process.version} does not have; it was not run (it never falls back to in-process). Run on Node 20 or later`);
    prefix ??= namespacePrefix(resolved.networkNamespace);
    namespace = await prefix;
    if (namespace === null && resolved.networkNamespace === "required") {
      const why = (await sandboxLayers(resolved.networkNamespace)).networkNamespace.reason;
      return failure("SANDBOX_UNAVAILABLE", `tool ${JSON.stringify(name)} was not run: networkNamespace is "required" but ${why}. Allow unshare on this host, or use networkNamespace: "auto"`);
    }
    if (await isSymlink(join(request.root, tool.source.bundle))) {
      return failure("LOCK_MISMATCH", `tool ${JSON.stringify(name)}: its staged bundle ${tool.source.bundle} is a symbolic link; deploy the build folder's files themselves (cave build writes none)`);
    }
    // The child imports the verified bytes from the runtime's private copy, never the build folder (loader.ts).
    let files: StagedFiles;
    try {
      files = await request.stageFiles();
    } catch (thrown) {
      if (thrown instanceof RuntimeError) return failure(thrown.code, thrown.message);
      throw thrown;
    }
    if ([...files.readable, childEntry().dir].some((path) => path.includes(","))) {
      // Early Node 20 releases split --allow-fs-read at commas: such a path would grant reads elsewhere.
      return failure("SANDBOX_UNAVAILABLE", `tool ${JSON.stringify(name)} was not run: the path of its staged files or of the sandbox's bootstrap contains a comma, which Node's --allow-fs-read cannot express safely on every Node version; move the package or the temporary folder (TMPDIR) to a path without one`);
    }
    const root = request.root;
    const start = () => spec(name, tool, root, files, flag, namespace);
    starters.set(key.tool, start);
    const leased: Leased = { child: pool.lease(key, start), key, start };
    onLease(leased);
    const started = leased.child.starting ? await untilStarted(leased.child, signal) : await leased.child.started;
    if (started === "aborted") return deathFailure(name, tool, { by: "deadline" }, limits);
    if (started.ok) return leased;
    if ("death" in started) return deathFailure(name, tool, started.death, limits);
    return failure(started.code, started.message);
  }

  /** Everything a child is started with is in the tool key, so a spare fits whichever run takes it. */
  function poolKey(request: DispatchRequest | OpaqueValidationRequest): PoolKey {
    const { tool, root } = request;
    let known = toolKeys.get(tool);
    if (known === undefined || known.root !== root) {
      known = { root, key: JSON.stringify([root, request.name, tool.export, tool.source.sha256, tool.sandbox.env]) };
      toolKeys.set(tool, known);
    }
    return { run: `${request.runId}\u0000${known.key}`, tool: known.key };
  }

  function spec(name: string, tool: LockedTool, root: string, files: StagedFiles, flag: string, namespace: readonly string[] | null): ChildSpec {
    return {
      name,
      bundle: files.bundle,
      readable: files.readable,
      shownBundle: tool.source.bundle,
      sha256: tool.source.sha256,
      exportName: tool.export,
      opaqueInput: tool.input?.validation.kind === "opaque",
      env: sandboxEnv(tool.sandbox.env),
      cwd: root,
      heapMb: resolved.heapMb,
      startTimeoutMs: resolved.startTimeoutMs,
      maxOutputBytes: resolved.maxOutputBytes,
      maxFrameBytes,
      permissionFlag: flag,
      namespacePrefix: namespace,
    };
  }

  async function dispatch(request: DispatchRequest): Promise<DispatchResult> {
    const { name, tool, context } = request;
    const signal = context.signal;
    if (signal.aborted) return deathFailure(name, tool, { by: "deadline" }, limits);
    const inputText = jsonText(request.input);
    if (inputText === undefined || Buffer.byteLength(inputText) > maxFrameBytes - FRAME_SLACK) {
      return failure("INPUT_INVALID", `the input for tool ${JSON.stringify(name)} could not be sent to its sandbox process as JSON within ${resolved.maxInputBytes} bytes; it was not run`);
    }
    let leased: Leased | undefined;
    // At the deadline (or when the parent call ends) a working child's process group is killed at
    // once and the pending request settles with that death, so the result is never held up by a
    // stuck child. A child still loading is left to finish: it becomes a spare (pool.release).
    const onAbort = () => {
      if (leased?.child.busy === true) leased.child.kill({ by: "deadline" });
    };
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const found = await childFor(request, signal, (chosen) => {
        leased = chosen;
      });
      if (!("child" in found)) return found;
      if (signal.aborted) return deathFailure(name, tool, { by: "deadline" }, limits);
      const answer = await found.child.run(context.callId, context.idempotencyKey, inputText, (nestedName, args) => context.call(nestedName, args));
      return toDispatchResult(name, tool, answer);
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (leased !== undefined) pool.release(leased.key, leased.child, leased.start);
    }
  }

  async function validateOpaque(request: OpaqueValidationRequest): Promise<OpaqueValidationResult> {
    const { name, tool, side } = request;
    const valueText = jsonText(request.value);
    if (valueText === undefined) return { ok: false, code: "TOOL_ERROR", message: `the ${side} of tool ${JSON.stringify(name)} could not be sent to its sandbox process as JSON` };
    // Validation has no AbortSignal of its own; it can never legitimately outlast the call's timeout.
    let leased: Leased | undefined;
    const expiry = new AbortController();
    const timer = setTimeout(() => {
      expiry.abort();
      if (leased?.child.busy === true) leased.child.kill({ by: "deadline" });
    }, tool.timeoutMs);
    let answer: Answer;
    try {
      const found = await childFor(request, expiry.signal, (chosen) => {
        leased = chosen;
      });
      if (!("child" in found)) return { ok: false, code: found.code, message: found.message };
      if (expiry.signal.aborted) {
        const late = deathFailure(name, tool, { by: "deadline" }, limits);
        return { ok: false, code: late.code, message: late.message };
      }
      // The input's transformed value stays in the child (execute gets it there); only the verdict comes back.
      answer = await found.child.validate(side, valueText, side === "output");
    } finally {
      clearTimeout(timer);
      if (leased !== undefined) pool.release(leased.key, leased.child, leased.start);
    }
    switch (answer.t) {
      case "validated":
        return { ok: true, value: side === "input" ? request.value : answer.value };
      case "invalid":
        return { ok: false, issues: answer.issues };
      case "fail": {
        if (answer.code === "LOCK_MISMATCH") return { ok: false, code: "LOCK_MISMATCH", message: answer.message };
        if (answer.code === "OUTPUT_NOT_SERIALISABLE" || answer.code === "OUTPUT_TOO_LARGE") {
          const refused = dataFailure(JSON.stringify(name), `'s ${side} validator produced`, answer.problem, resolved.maxOutputBytes);
          return { ok: false, code: refused.code, message: refused.message };
        }
        return { ok: false, code: "TOOL_ERROR", message: `the ${side} validator of tool ${JSON.stringify(name)} threw: ${answer.message}` };
      }
      case "result":
        return { ok: false, code: "PROTOCOL_ERROR", message: `tool ${JSON.stringify(name)}'s sandbox process answered a validation with a result` };
      case "died": {
        const dead = deathFailure(name, tool, answer.death, limits);
        return { ok: false, code: dead.code, message: dead.message };
      }
    }
  }

  function toDispatchResult(name: string, tool: LockedTool, answer: Answer): DispatchResult {
    switch (answer.t) {
      case "result":
        return { ok: true, value: answer.value };
      case "fail":
        return childFailure(name, answer, limits);
      case "died":
        return deathFailure(name, tool, answer.death, limits);
      default:
        return failure("PROTOCOL_ERROR", `tool ${JSON.stringify(name)}'s sandbox process answered a call with ${answer.t}`);
    }
  }

  return Object.freeze({
    dispatch,
    validateOpaque,
    layers: () => sandboxLayers(resolved.networkNamespace),
    stats: () => pool.stats(),
    pids: () => pool.pids(),
    close: () => pool.close(),
  });
}

/** The child's start-up, or "aborted" as soon as the signal is: a call never waits past its deadline. */
function untilStarted(child: SandboxChild, signal: AbortSignal): Promise<Started | "aborted"> {
  if (signal.aborted) return Promise.resolve("aborted");
  return new Promise((resolve) => {
    const onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    void child.started.then((started) => {
      signal.removeEventListener("abort", onAbort);
      resolve(started);
    });
  });
}

function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value === undefined ? null : value);
  } catch {
    return undefined;
  }
}

/** Whether the bundle in the build folder is a symbolic link, which is refused (a missing one is reported when it is read). */
async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
