/** Runs `cave build`: discover → analyse → stage → evaluate → validators → plan → emit. */
export { build, type BuildOptions, type BuildResult } from "./build.js";
/** An ordinary (unlocked) run of one tool: stages its entry module on the fly and calls it through the runtime's pipeline and sandbox. */
export { run, type RunOptions } from "./run.js";
/** A compiler finding: code, severity, message, file, line, column, hint. */
export type { Diagnostic } from "./diagnostics.js";
/** Renders a diagnostic like a compiler (`file:line:col: error CAVE2003: ...`). */
export { renderDiagnostic } from "./cli/render-diagnostics.js";
/** Renders a lock as the reviewed text of cave.lock. */
export { renderLock } from "./emit/render.js";
/** Runs the CLI in-process (argv without `node cave`); returns the exit code. */
export { main } from "./cli/main.js";
/** The one registry of stable codes (authoring rules, compiler passes, runtime outcomes), each with title and doc. */
export { CODES, type CaveCode } from "../src/contract/codes.js";
/** The lock's types. */
export type { CaveLock, LockedTool, LockedAgent, LockedSchema } from "../src/contract/lock.js";
