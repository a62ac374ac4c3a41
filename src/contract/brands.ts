/**
 * Brands mark the SDK's frozen values. They are registered symbols (Symbol.for) so that a definition
 * made by a bundled copy of the SDK is still recognised by the compiler's evaluator and the runtime.
 */
export const TOOL_BRAND: unique symbol = Symbol.for("cave.tool") as never;
export const ARTIFACT_BRAND: unique symbol = Symbol.for("cave.artifact") as never;
export const AGENT_BRAND: unique symbol = Symbol.for("cave.agent") as never;
