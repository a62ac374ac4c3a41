import type { LockedTool } from "../../src/contract/lock.js";
import type { DispatchRequest, OpaqueValidationRequest } from "../dispatch/types.js";
import type { SandboxDispatcher } from "./dispatcher.js";
import { sandboxLayers } from "./layers.js";
import { resolveSandboxOptions, type SandboxOptions } from "./options.js";
import { osOnlyTools } from "./os-only.js";
import type { PoolStats } from "./pool.js";

/** A pool that has started nothing. */
const NOTHING_STARTED: PoolStats = Object.freeze({ spawned: 0, live: 0, idle: 0, spares: 0 });

/**
 * Creates the sandbox dispatcher: every call of a `sandbox: "required"` tool runs in a restricted child process
 * (docs/sandbox.md) imported from the tool's staged, hash-pinned bundle. Its options are checked now (a bad one throws
 * OPTIONS_INVALID here); the host itself (dispatcher.ts: the child pool, the egress broker, the OS layer) is loaded on
 * the first call, or by prepare() when a tool needs the OS layer, so a runtime whose calls never reach the sandbox never
 * loads it (about a sixth of the runtime's code, parsed at every start-up otherwise). Nothing starts until the first
 * call. Failures come back as typed outcomes; nothing is thrown.
 */
export function createSandboxDispatcher(options?: SandboxOptions): SandboxDispatcher {
  const resolved = resolveSandboxOptions(options);
  let made: SandboxDispatcher | undefined;
  let loading: Promise<SandboxDispatcher> | undefined;
  const host = (): Promise<SandboxDispatcher> =>
    (loading ??= import("./dispatcher.js").then((module) => (made = module.sandboxHost(resolved))));
  return Object.freeze({
    dispatch: async (request: DispatchRequest) => (await host()).dispatch(request),
    validateOpaque: async (request: OpaqueValidationRequest) => (await host()).validateOpaque(request),
    layers: () => sandboxLayers(resolved.isolation, resolved.bwrap),
    stats: () => made?.stats() ?? NOTHING_STARTED,
    pids: () => made?.pids() ?? [],
    prepare: async (tools: Readonly<Record<string, LockedTool>> = {}, root = process.cwd()) => {
      // Only isolation "os" and tools with powers only the OS layer enforces have anything to check before a call.
      if (resolved.isolation !== "os" && osOnlyTools(tools).length === 0) return;
      await (await host()).prepare(tools, root);
    },
    isolation: () => made?.isolation() ?? null,
    // A host still loading has started nothing; one made after close() starts its children on later calls, as the
    // contract says of calls after close().
    close: () => made?.close(),
  });
}
