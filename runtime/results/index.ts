export { ResultPlans, type ResultOutcome, type ResultPlansOptions, type ResultSuccess } from "./engine.js";
export { createFileRecoveryStore, createMemoryRecoveryStore, type RecoveryStore } from "./store.js";
export { RESERVED_TOOLS, isReservedTool, reservedToolsFor, type ReservedTool } from "./reserved.js";
export { pageCuts } from "./paginate.js";
export type { ResultFailure, ResultsRuntimeCode } from "./failure.js";
