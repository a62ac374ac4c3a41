import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { LockedTool } from "../../src/contract/lock.js";
import type {
  DispatchRequest,
  DispatchResult,
  Dispatcher,
  OpaqueValidationRequest,
  OpaqueValidationResult,
  StagedFiles,
} from "../dispatch/types.js";
import { RuntimeError } from "../errors.js";
import { childEntry } from "../child-entry.js";
import { sandboxEnv } from "./env.js";
import { childFailure, dataFailure, deathFailure, failure, type Limits } from "./failures.js";
import { resolveIsolation, type Isolation, type ResolvedIsolation } from "./isolation.js";
import { osLayerRequired, osOnlyPowers, osOnlyTools } from "./os-only.js";
import { grantScopes } from "./scopes.js";
import { permissionFlag, sandboxLayers, unsafePermissionPath, type SandboxLayers } from "./layers.js";
import type { OsLayer } from "./os-layer.js";
import type { ResolvedSandboxOptions } from "./options.js";
import { ChildPool, type PoolKey, type PoolStats } from "./pool.js";
import type { Answer, ChildSpec, SandboxChild, Started } from "./sandbox-child.js";
import { RssWatchdog } from "./watchdog.js";
import { EgressChannel } from "./egress/channel.js";
import { secretValues } from "./egress/secrets.js";
import { upstreamAgents, type UpstreamAgents } from "./egress/upstream.js";

/** The child-process sandbox: a Dispatcher, plus what an operator or a test needs to see and stop it. */
export interface SandboxDispatcher extends Dispatcher {
  /** The layers a child gets on this machine (docs/sandbox.md). */
  layers(): Promise<SandboxLayers>;
  stats(): PoolStats;
  /** The host pids of the node processes of the children alive now (under the OS layer: inside bwrap, once known). */
  pids(): number[];
  /**
   * Under isolation "os", or when one of `tools` has powers only the OS layer enforces (os-only.ts), probes the OS layer
   * (once per process) and rejects with SANDBOX_UNAVAILABLE when "os" cannot start here, OS_LAYER_REQUIRED when such
   * a tool would run without it, FS_SCOPE_UNAVAILABLE when a scope cannot be granted (write scopes are created here);
   * createRuntime calls it, so that is said at start, not at a first call. Otherwise it resolves at once.
   */
  prepare(tools?: Readonly<Record<string, LockedTool>>, root?: string): Promise<void>;
  /** What children run under: "os" or "node"; null before prepare() (or a first call) has worked it out. */
  isolation(): Isolation | null;
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
 * The sandbox host: every call of a `sandbox: "required"` tool runs in a restricted child process (docs/sandbox.md)
 * imported from the tool's staged, hash-pinned bundle. Failures come back as typed outcomes; nothing is thrown.
 * createSandboxDispatcher (create-dispatcher.ts) loads this module and makes one on first use, with the options it checked.
 */
export function sandboxHost(resolved: ResolvedSandboxOptions): SandboxDispatcher {
  const pool = new ChildPool(resolved, new RssWatchdog(resolved.maxRssMb * 1_048_576));
  const limits: Limits = {
    heapMb: resolved.heapMb,
    maxRssMb: resolved.maxRssMb,
    maxOutputBytes: resolved.maxOutputBytes,
  };
  const maxFrameBytes = Math.max(resolved.maxInputBytes, resolved.maxOutputBytes) + FRAME_SLACK;
  let resolving: Promise<ResolvedIsolation | RuntimeError> | undefined;
  let resolvedIsolation: ResolvedIsolation | undefined;
  let osLayer: OsLayer | null = null;
  const isolation = (): Promise<ResolvedIsolation | RuntimeError> => {
    resolving ??= resolveIsolation(resolved.isolation, resolved.bwrap).then(
      (found) => {
        resolvedIsolation = found;
        osLayer = found.layer;
        return found;
      },
      (thrown: unknown) =>
        thrown instanceof RuntimeError ? thrown : new RuntimeError("SANDBOX_UNAVAILABLE", String(thrown)),
    );
    return resolving;
  };
  // The broker's upstream connections, shared by every child of this dispatcher (policy is checked per request first).
  let agents: UpstreamAgents | undefined;
  const upstream = () => (agents ??= upstreamAgents());
  const toolKeys = new WeakMap<LockedTool, { readonly root: string; readonly key: string }>();
  /** How to start another child for a tool key (for its spare), as its last start-up resolved it. */
  const starters = new Map<string, () => ChildSpec>();

  /**
   * A warm or new child for this run and tool, started; or why there is none. `onLease` learns the
   * child as soon as it is chosen, before it is ready, so a deadline can kill it during start-up.
   */
  async function childFor(
    request: DispatchRequest | OpaqueValidationRequest,
    signal: AbortSignal,
    onLease: (leased: Leased) => void,
  ): Promise<Leased | (DispatchResult & { ok: false })> {
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
      return failure(
        "NETWORK_REFUSED",
        `tool ${JSON.stringify(name)} asks for network access (sandboxProfile.network: true), which is unbounded egress and always fails closed; it was not run. Remove network: true and list the hosts it reaches in sandboxProfile.egress`,
      );
    }
    const flag = permissionFlag();
    if (flag === null)
      return failure(
        "SANDBOX_UNAVAILABLE",
        `tool ${JSON.stringify(name)} needs Node's permission model, which Node ${process.version} does not have; it was not run (it never falls back to in-process). Run on Node 20 or later`,
      );
    const found = await isolation();
    if (found instanceof RuntimeError)
      return failure("SANDBOX_UNAVAILABLE", `tool ${JSON.stringify(name)} was not run: ${found.message}`);
    const powers = osOnlyPowers(tool.sandbox);
    if (powers.length > 0 && found.isolation !== "os")
      return failure("OS_LAYER_REQUIRED", osLayerRequired(name, powers, found.reason));
    if (await isSymlink(join(request.root, tool.source.bundle))) {
      return failure(
        "LOCK_MISMATCH",
        `tool ${JSON.stringify(name)}: its staged bundle ${tool.source.bundle} is a symbolic link; deploy the build folder's files themselves (cave build writes none)`,
      );
    }
    // The child imports the verified bytes from the runtime's private copy, never the build folder (loader.ts).
    let files: StagedFiles;
    try {
      files = await request.stageFiles();
    } catch (thrown) {
      if (thrown instanceof RuntimeError) return failure(thrown.code, thrown.message);
      throw thrown;
    }
    const unsafe =
      [...files.readable, childEntry().dir].map(unsafePermissionPath).find((found) => found !== null) ?? null;
    if (unsafe !== null) {
      // `*` is a wildcard to --allow-fs-read and early Node 20 releases split it at commas: such a path would grant reads elsewhere.
      return failure(
        "SANDBOX_UNAVAILABLE",
        `tool ${JSON.stringify(name)} was not run: the path of its staged files or of the sandbox's bootstrap contains ${JSON.stringify(unsafe)}, which Node's --allow-fs-read reads as ${unsafe === "*" ? "a wildcard" : "a separator"}, so it cannot grant exactly that path; move the package or the temporary folder (TMPDIR) to a path without "*" or ","`,
      );
    }
    const root = request.root;
    const layer = osLayer;
    const start = () => spec(name, tool, root, files, flag, layer);
    starters.set(key.tool, start);
    const child = await pool.lease(key, start, signal);
    if (child === "aborted")
      return failure(
        "TIMEOUT",
        `tool ${JSON.stringify(name)} did not start within its timeout of ${tool.timeoutMs} ms: it waited for a sandbox process (maxChildren ${resolved.maxChildren}) and never ran`,
      );
    if (child === "busy") {
      return failure(
        "SANDBOX_BUSY",
        `tool ${JSON.stringify(name)} was not run: this runtime already runs ${resolved.maxChildren} sandbox processes (maxChildren) and ${resolved.maxQueued} calls wait for one (maxQueued). Retry later, or raise maxChildren / maxQueued`,
      );
    }
    const leased: Leased = { child, key, start };
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
      known = {
        root,
        key: JSON.stringify([
          root,
          request.name,
          tool.export,
          tool.source.sha256,
          tool.sandbox.env,
          tool.sandbox.egress,
          tool.sandbox.secrets,
          tool.sandbox.fs,
          tool.sandbox.addons,
        ]),
      };
      toolKeys.set(tool, known);
    }
    return { run: `${request.runId}\u0000${known.key}`, tool: known.key };
  }

  function spec(
    name: string,
    tool: LockedTool,
    root: string,
    files: StagedFiles,
    flag: string,
    layer: OsLayer | null,
  ): ChildSpec {
    const scope =
      tool.sandbox.egress.length === 0 ? null : { egress: tool.sandbox.egress, secrets: tool.sandbox.secrets };
    // Scopes are checked again for every child, spares included: one replaced by a symbolic link since is refused.
    const grant = tool.sandbox.fs === null ? null : grantScopes(tool.sandbox.fs, root, process.env, "create");
    const refused =
      grant !== null && "problem" in grant
        ? `tool ${JSON.stringify(name)} was not run: its ${grant.problem}`
        : undefined;
    const scopes = grant !== null && !("problem" in grant) ? grant : null;
    return {
      refused,
      scopes,
      name,
      bundle: files.bundle,
      readable: files.readable,
      shownBundle: tool.source.bundle,
      sha256: tool.source.sha256,
      exportName: tool.export,
      opaqueInput: tool.input?.validation.kind === "opaque",
      nativeOutput: tool.output === null,
      env: { ...sandboxEnv(tool.sandbox.env), ...scopes?.env },
      cwd: root,
      heapMb: resolved.heapMb,
      startTimeoutMs: resolved.startTimeoutMs,
      maxOutputBytes: resolved.maxOutputBytes,
      maxFrameBytes,
      permissionFlag: flag,
      osLayer: layer,
      // A socket of its own per child: the broker knows the tool's scope by the socket a request arrives on.
      egress: scope === null ? null : new EgressChannel(scope, resolved.egress, upstream()),
      addons: tool.sandbox.addons,
    };
  }

  async function dispatch(request: DispatchRequest): Promise<DispatchResult> {
    const { name, tool, context } = request;
    const signal = context.signal;
    if (signal.aborted) {
      warmAfterDeadline(request);
      return deathFailure(name, tool, { by: "deadline" }, limits);
    }
    const inputText = jsonText(request.input);
    if (inputText === undefined || Buffer.byteLength(inputText) > maxFrameBytes - FRAME_SLACK) {
      return failure(
        "INPUT_INVALID",
        `the input for tool ${JSON.stringify(name)} could not be sent to its sandbox process as JSON within ${resolved.maxInputBytes} bytes; it was not run`,
      );
    }
    // The secrets' values are read for each call, before the tool starts (a vault may rotate them); they go to the
    // broker only, never into the child.
    let secrets: ReadonlyMap<string, string> = new Map();
    if (Object.keys(tool.sandbox.secrets).length > 0) {
      const found = await secretValues(tool.sandbox.secrets, resolved.secrets);
      if (!found.ok)
        return failure(
          "SECRET_MISSING",
          `tool ${JSON.stringify(name)} needs the secret ${found.name} (sandboxProfile.secrets), but ${found.why}; it was not run. Set ${found.name} in the host's environment or give it to createRuntime({ secrets })`,
        );
      secrets = found.values;
    }
    let leased: Leased | undefined;
    let egress: EgressChannel | undefined;
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
      egress = found.child.spec.egress ?? undefined;
      egress?.arm(secrets, request.egressLog ?? []);
      const answer = await found.child.run(context.callId, context.idempotencyKey, inputText, (nestedName, args) =>
        context.call(nestedName, args),
      );
      return withLogs(await withStack(toDispatchResult(name, tool, answer), answer, request), answer);
    } finally {
      egress?.disarm();
      signal.removeEventListener("abort", onAbort);
      if (leased !== undefined) pool.release(leased.key, leased.child, leased.start);
    }
  }

  /**
   * A call whose deadline passed before it reached the host (the host itself was still loading: create-dispatcher.ts)
   * still starts its tool's child, which then waits warm for the next call, as a child still loading at a call's
   * deadline does (pool.release): a tool whose timeout is shorter than the start-up times out once, not forever. It
   * waits for a place in the pool no longer than a call of the tool would.
   */
  function warmAfterDeadline(request: DispatchRequest): void {
    let leased: Leased | undefined;
    void childFor(request, AbortSignal.timeout(request.tool.timeoutMs), (chosen) => {
      leased = chosen;
    })
      .catch(() => undefined)
      .finally(() => {
        if (leased !== undefined) pool.release(leased.key, leased.child, leased.start);
      });
  }

  async function validateOpaque(request: OpaqueValidationRequest): Promise<OpaqueValidationResult> {
    const { name, tool, side } = request;
    const valueText = jsonText(request.value);
    if (valueText === undefined)
      return {
        ok: false,
        code: "TOOL_ERROR",
        message: `the ${side} of tool ${JSON.stringify(name)} could not be sent to its sandbox process as JSON`,
      };
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
        if (
          answer.code === "OUTPUT_NOT_SERIALISABLE" ||
          answer.code === "OUTPUT_TOO_LARGE" ||
          answer.code === "OUTPUT_TOO_DEEP"
        ) {
          const refused = dataFailure(
            JSON.stringify(name),
            `'s ${side} validator produced`,
            answer.problem,
            resolved.maxOutputBytes,
            true,
          );
          return { ok: false, code: refused.code, message: refused.message };
        }
        return {
          ok: false,
          code: "TOOL_ERROR",
          message: `the ${side} validator of tool ${JSON.stringify(name)} threw: ${answer.message}`,
        };
      }
      case "result":
        return {
          ok: false,
          code: "PROTOCOL_ERROR",
          message: `tool ${JSON.stringify(name)}'s sandbox process answered a validation with a result`,
        };
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
        return childFailure(name, tool, answer, limits);
      case "died":
        return deathFailure(name, tool, answer.death, limits);
      default:
        return failure(
          "PROTOCOL_ERROR",
          `tool ${JSON.stringify(name)}'s sandbox process answered a call with ${answer.t}`,
        );
    }
  }

  return Object.freeze({
    dispatch,
    validateOpaque,
    layers: () => sandboxLayers(resolved.isolation, resolved.bwrap),
    stats: () => pool.stats(),
    pids: () => pool.pids(),
    prepare: async (tools: Readonly<Record<string, LockedTool>> = {}, root = process.cwd()) => {
      // Called only when there is something to prepare: create-dispatcher.ts decides, without loading this module.
      const needing = osOnlyTools(tools);
      const found = await isolation();
      if (found instanceof RuntimeError) throw found;
      if (found.isolation !== "os" && needing.length > 0)
        throw new RuntimeError(
          "OS_LAYER_REQUIRED",
          needing.map(({ name, powers }) => osLayerRequired(name, powers, found.reason)).join("; "),
        );
      // Write scopes are created now, at deploy, and every scope is checked before the runtime is ready.
      for (const { name, tool } of needing) {
        const grant = tool.sandbox.fs === null ? null : grantScopes(tool.sandbox.fs, root, process.env, "create");
        if (grant !== null && "problem" in grant)
          throw new RuntimeError("FS_SCOPE_UNAVAILABLE", `tool ${JSON.stringify(name)}: its ${grant.problem}`);
      }
    },
    isolation: () => resolvedIsolation?.isolation ?? null,
    close: () => {
      pool.close();
      agents?.http.destroy();
      agents?.https.destroy();
    },
  });
}

/** The call's output tail the child sent with its answer, for the outcome's `logs`. */
function withLogs(result: DispatchResult, answer: Answer): DispatchResult {
  return (answer.t === "result" || answer.t === "fail") && answer.logs !== null
    ? { ...result, logs: answer.logs }
    : result;
}

/** A tool error with the child's stack, mapped to the original files (runtime/stack/map-stack.ts). */
async function withStack(result: DispatchResult, answer: Answer, request: DispatchRequest): Promise<DispatchResult> {
  if (
    result.ok ||
    result.code !== "TOOL_ERROR" ||
    answer.t !== "fail" ||
    answer.stack === null ||
    request.mapStack === undefined
  )
    return result;
  const stack = await request.mapStack(answer.stack);
  return stack.length === 0 ? result : { ...result, stack };
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
