import type { CodeEntry } from "./types.js";

/** CAVE5xxx: evaluation, importing the staged bundles in a restricted child process to read the definitions. */
export const EVALUATE_CODES = {
  CAVE5001: {
    title: "Module threw on import",
    doc: "Importing a staged tool module threw. Build-time evaluation runs with an empty environment, without file system access, and never calls execute: move work that needs those into execute.",
  },
  CAVE5002: {
    title: "Module import timed out",
    doc: "Importing a staged tool module did not finish within the evaluation time limit (a loop or a promise that never settles at the top level). The process was killed; remove the blocking work from module scope.",
  },
  CAVE5003: {
    title: "Module ended the evaluation process",
    doc: "A tool module called process.exit or otherwise ended the build-time evaluation process while being imported. Tool modules must not exit the process at import time.",
  },
  CAVE5004: {
    title: "Definition cannot be read",
    doc: "A tool or agent exported by a module could not be turned into data: a schema holds a value that is not JSON (a function, a BigInt, a cycle), a Standard Schema library could not convert it to draft-07 JSON Schema (for example a transform on an output: pass `outputJSONSchema`), or reading a field threw.",
  },
  CAVE5005: {
    title: "Evaluated value differs from the source",
    doc: "A lock-relevant field of a tool or agent has a different value when the module runs than the source text says, so it is computed at import time. Write the value as a literal (or a const holding one) in the tool() or agent() call.",
  },
  CAVE5006: {
    title: "Definition not found in the source",
    doc: 'A module exports a tool or agent that static analysis did not find as a tool() or agent() call (for example one made by a wrapper function). Call tool() or agent() from "cave" directly where the definition is exported.',
  },
  CAVE5007: {
    title: "Opaque validator without semantics hash",
    doc: "A tool's input or output is a Standard Schema validator (zod, valibot, arktype...) whose behaviour cannot be read as data, and it has no schemaSemanticsSHA256. Locks refuse opaque validator identity: pass schemaSemanticsSHA256, the lowercase SHA-256 of the validator code, its dependencies and captured state, and change it when any of those change.",
  },
  CAVE5160: {
    title: "Build-time evaluation isolation unavailable",
    doc: "The isolation setting for build-time evaluation (CAVE_ISOLATION, else isolation in cave.config.json) is not one of os, auto or node, or it is os and the sandbox's OS layer (bubblewrap) cannot start on this machine; the message says why (what to install, or the setting that blocks it). No module was evaluated. Install bubblewrap, allow it to create namespaces, or use auto to evaluate with the Node layers only.",
  },
  CAVE5161: {
    title: "External package not installed at build time",
    doc: "The build imports each tool module once to read its definitions, and a module that imports an external package (cave.config.json \"external\") needs that package installed in the project's node_modules, as package-lock.json pins it. Install the project's dependencies (npm ci) before cave build.",
  },
} as const satisfies Record<string, CodeEntry>;
