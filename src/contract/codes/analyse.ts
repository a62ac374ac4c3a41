import type { CodeEntry } from "./types.js";

/** CAVE30xx: static analysis of tool modules (syntax only, before any user code runs). */
export const ANALYSE_CODES = {
  CAVE3001: {
    title: "Module could not be analysed",
    doc: "A module could not be read, or analysing it failed unexpectedly; the message keeps the cause. Check that the file exists and is readable.",
  },
  CAVE3002: {
    title: "Syntax error",
    doc: "A tool module does not parse as TypeScript, so its tools cannot be read. Fix the syntax at the reported place.",
  },
  CAVE3003: {
    title: "Tool or agent not defined as a module-level const",
    doc: "The runtime imports tools and agents by export name, so each tool(...) and agent(...) call must initialise its own module-level `export const` (not inline in an array, inside a function, with let/var, or as a default export).",
  },
  CAVE3004: {
    title: "Tool or agent const not exported, so not locked",
    doc: "A module-level tool(...) or agent(...) const is not exported. A tool const that an exported agent (or a locked composite tool) lists is locked anyway, its module's staged bundle exporting it under its own name; any other is a warning, and it is not locked. It is an error when the module exports another value under the tool's name. Export it (`export const name = tool({...})` or `export { name }`), list it in an exported agent's tools, or delete it.",
  },
  CAVE3005: {
    title: "Computed value for a locked field",
    doc: "A lock-relevant field (name, description, effect, timeout, allowRepeat, sandbox, sandboxProfile, nestedTools, result, schemaSemanticsSHA256, artifact options, agent name, description and tools) must be known without running code: a literal, or a const initialised with one (possibly imported from another module of the project).",
  },
  CAVE3006: {
    title: "Options cannot be read statically",
    doc: "The options of tool(), agent() or artifact() must be an object literal (inline or in a const) without spreads or computed keys, so the build can see every key.",
  },
  CAVE3007: {
    title: "Tool reference outside the build",
    doc: "nestedTools or an agent's tools refer to a tool defined in a module the build does not include (nor re-exports from one it includes), so it would not be locked. Add that module to the include globs, re-export the tool from an included module, or move the tool into an included module.",
  },
  CAVE3008: {
    title: "Duplicate tool name in the project",
    doc: "Two tools anywhere in the project share a name; the lock keys tools by name. Rename one of them.",
  },
  CAVE3009: {
    title: "Duplicate agent name in the project",
    doc: "Two agents anywhere in the project share a name; the lock keys agents by name. Rename one of them.",
  },
  CAVE3010: {
    title: "tool/agent/artifact used other than in a direct call",
    doc: 'tool, agent or artifact imported from "cave" (or from a project module that re-exports them) is passed around, aliased through a variable or destructured, so the build cannot find the definitions it makes. Call it directly: `export const x = tool({...})`. Re-exporting them (`export { tool } from "cave"`) is fine: imports are followed through project modules.',
  },
} as const satisfies Record<string, CodeEntry>;
