/** Defines a tool and checks every authoring rule at definition time. */
export { tool, isTool } from "./tool.js";
/** A result policy with an inline token cap and exact recovery. */
export { artifact, ARTIFACT_DEFAULTS } from "./artifact.js";
/** Groups tools; duplicate names fail here. */
export { agent } from "./agent.js";
/** The TypeBox wrapper: string, number, integer, boolean, object, array, optional, union, literal, null, any. */
export { schema, SCHEMA_FORMATS } from "./schema.js";
/** The SDK's error class, with a stable code per rule. */
export { CaveError, type Violation } from "./errors.js";
/** The stable code of an authoring rule (the registry itself is exported by cave/compiler). */
export type { CaveCode } from "./contract/codes.js";
/** Authoring types. */
export type * from "./types.js";
/** TypeBox's static type of a schema.* value. */
export type { Static, TSchema } from "./schema.js";
