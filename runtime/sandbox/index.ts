/** The child-process sandbox for `sandbox: "required"` tools (docs/sandbox.md). */
export { createSandboxDispatcher, type SandboxDispatcher } from "./dispatcher.js";
export { SANDBOX_DEFAULTS, type SandboxOptions } from "./options.js";
export { sandboxLayers, type SandboxLayers, type NamespaceMethod, type NamespaceSetting } from "./layers.js";
export type { PoolStats } from "./pool.js";
