/** The child-process sandbox for `sandbox: "required"` tools (docs/sandbox.md). */
export { createSandboxDispatcher } from "./create-dispatcher.js";
export type { SandboxDispatcher } from "./dispatcher.js";
export { SANDBOX_DEFAULTS, type SandboxOptions } from "./options.js";
export { sandboxLayers, type SandboxLayers } from "./layers.js";
export { ISOLATION_ENV, type Isolation, type IsolationSetting } from "./isolation.js";
export { osLayerCommand, probeOsLayer, type Mount, type Namespace, type OsLayer, type OsProbe } from "./os-layer.js";
export type { PoolStats } from "./pool.js";
