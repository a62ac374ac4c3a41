import type { CaveCode } from "../../src/contract/codes.js";
import type { RuntimeCode } from "../../src/contract/codes/runtime.js";
import { MAX_JSON_DEPTH } from "../../src/contract/hash.js";
import { LOCKFILE_VERSION } from "../../src/contract/lock.js";
import { RuntimeError } from "../errors.js";

/**
 * One thing wrong with a lock or its build folder, as data: what kind of problem, and the facts a message needs.
 * The inspector (inspect.ts, build-folder.ts) finds them; the runtime turns the first into a RuntimeError and cave
 * verify, cave diff and cave build --frozen report them all. Codes and wording are below, once for every reader.
 */
export type LockProblem =
  | { readonly kind: "absent" }
  | { readonly kind: "unreadable"; readonly reason: string }
  | { readonly kind: "not-json"; readonly detail?: string }
  | { readonly kind: "not-object" }
  | { readonly kind: "version"; readonly found: unknown }
  | { readonly kind: "no-integrity" }
  | { readonly kind: "integrity"; readonly said: string; readonly actual: string; readonly over: "header" | "all" }
  | { readonly kind: "too-deep"; readonly tool?: string }
  | { readonly kind: "entry-missing"; readonly tool: string }
  | { readonly kind: "entry-unpinned"; readonly tool: string }
  | { readonly kind: "entry-hash"; readonly tool: string; readonly pinned: string; readonly actual: string }
  | { readonly kind: "entry-unreadable"; readonly tool: string }
  | { readonly kind: "shape"; readonly detail: string }
  | { readonly kind: "dangling"; readonly at: string; readonly tool: string }
  | { readonly kind: "duplicate-export"; readonly tools: readonly string[]; readonly export: string }
  | { readonly kind: "os-layer"; readonly listed: readonly string[]; readonly needing: readonly string[] }
  | {
      readonly kind: "outside-build-folder";
      readonly tool: string;
      readonly at: string;
      readonly path: string;
      readonly buildDir: string;
    }
  | { readonly kind: "pinned-twice"; readonly path: string; readonly first: string; readonly second: string }
  | { readonly kind: "build-folder-missing"; readonly buildDir: string }
  | { readonly kind: "file-missing"; readonly path: string; readonly what: string }
  | { readonly kind: "not-a-file"; readonly path: string; readonly what: string }
  | {
      readonly kind: "file-hash";
      readonly path: string;
      readonly what: string;
      readonly pinned: string;
      readonly actual: string;
    }
  | { readonly kind: "unreferenced-file"; readonly path: string }
  | { readonly kind: "externals"; readonly message: string };

export type LockProblemKind = LockProblem["kind"];

/** Who reads a problem: the runtime refusing to start (or to run one tool), or the cave CLI checking a deploy. */
export type Reader = "runtime" | "cave";

/**
 * Each kind's code for each reader. The runtime has no code for what it never reports: it loads a build folder's files
 * on first use (loader.ts), an entry toolHashes does not pin is simply not a locked tool, and it states dangling names
 * and a wrong osLayerTools as the shape problems they are (inspect.ts).
 */
export const LOCK_PROBLEM_CODES: {
  readonly [K in LockProblemKind]: { readonly runtime?: RuntimeCode; readonly cave: CaveCode };
} = {
  absent: { runtime: "LOCK_NOT_FOUND", cave: "CAVE9001" },
  unreadable: { runtime: "LOCK_NOT_FOUND", cave: "CAVE9001" },
  "not-json": { runtime: "LOCK_INVALID", cave: "CAVE9002" },
  "not-object": { runtime: "LOCK_INVALID", cave: "CAVE9002" },
  version: { runtime: "LOCK_VERSION_UNSUPPORTED", cave: "CAVE9003" },
  "no-integrity": { runtime: "LOCK_INVALID", cave: "CAVE9004" },
  integrity: { runtime: "LOCK_MISMATCH", cave: "CAVE9005" },
  "too-deep": { runtime: "LOCK_INVALID", cave: "CAVE9004" },
  "entry-missing": { runtime: "LOCK_MISMATCH", cave: "CAVE9005" },
  "entry-unpinned": { cave: "CAVE9005" },
  "entry-hash": { runtime: "LOCK_MISMATCH", cave: "CAVE9005" },
  "entry-unreadable": { runtime: "LOCK_MISMATCH", cave: "CAVE9001" },
  shape: { runtime: "LOCK_INVALID", cave: "CAVE9004" },
  dangling: { cave: "CAVE9009" },
  "duplicate-export": { cave: "CAVE9010" },
  "os-layer": { cave: "CAVE9010" },
  "outside-build-folder": { cave: "CAVE9004" },
  "pinned-twice": { cave: "CAVE9010" },
  "build-folder-missing": { cave: "CAVE9011" },
  "file-missing": { cave: "CAVE9006" },
  "not-a-file": { cave: "CAVE9006" },
  "file-hash": { cave: "CAVE9007" },
  "unreferenced-file": { cave: "CAVE9008" },
  externals: { cave: "CAVE9120" },
};

/** What a reader is told to do about a lock it cannot use: the runtime's user redeploys, the CLI's user rebuilds. */
const REBUILD: Record<Reader, string> = {
  runtime: "regenerate it with cave build",
  cave: "run cave build to write it again",
};
const RESTORE: Record<Reader, string> = {
  runtime: "regenerate it with cave build",
  cave: "restore it from version control or run cave build",
};
const EDITED: Record<Reader, string> = {
  runtime: "regenerate it with cave build",
  cave: "run cave build instead of editing the lock",
};
/** A refused entry refuses its tool only. */
const ENTRY_EDITED: Record<Reader, string> = {
  runtime: "regenerate it with cave build and deploy it unchanged (the other tools still run)",
  cave: EDITED.cave,
};

/** The one wording of each problem, for each reader. `shown` is the lock's path relative to the root. */
export function lockProblemMessage(problem: LockProblem, shown: string, reader: Reader): string {
  const tool = (name: string) => `tool ${JSON.stringify(name)}`;
  switch (problem.kind) {
    case "absent":
      return `${shown} does not exist; run cave build in the project root${reader === "runtime" ? ", or pass root and lock to createRuntime()" : ""}`;
    case "unreadable":
      return `${shown} could not be read (${problem.reason}); ${reader === "runtime" ? "check that the runtime may read it" : "check its permissions"}`;
    case "not-json":
      // The runtime reads the header alone where it can, so it cannot say where the JSON breaks.
      return reader === "runtime"
        ? `${shown} is not valid JSON (or was cut short); regenerate it with cave build and never edit it by hand`
        : `${shown} is not valid JSON (${problem.detail ?? "a parse error"}); ${RESTORE.cave}`;
    case "not-object":
      return `${shown} is not a JSON object; ${RESTORE[reader]}`;
    case "version":
      return versionMessage(problem.found, shown, reader);
    case "no-integrity":
      return reader === "runtime"
        ? `${shown} has no integrity hash; ${REBUILD.runtime}`
        : `${shown}: integrity must be a sha256-<64 hex> hash; run cave build to write the lock again`;
    case "integrity": {
      if (reader === "runtime")
        return `${shown} does not match its integrity hash (it says ${problem.said}, its content hashes to ${problem.actual}): it was edited after cave build; ${EDITED.runtime}`;
      const content = problem.over === "header" ? "its content without the tools' entries" : "its content";
      return `${shown} was edited after cave build: its integrity says ${problem.said}, ${content} hashes to ${problem.actual}; ${EDITED.cave}`;
    }
    case "too-deep":
      return `${shown}${problem.tool === undefined ? "" : ` (${tool(problem.tool)})`} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep, which cave build never writes; ${REBUILD[reader]}`;
    case "entry-missing":
      return reader === "runtime"
        ? `${shown} has no entry for ${tool(problem.tool)}, which its toolHashes pins: the lock was cut short or edited after cave build; ${ENTRY_EDITED.runtime}`
        : `${shown}: ${tool(problem.tool)} is pinned in toolHashes but has no entry (the lock was cut short or edited after cave build); ${ENTRY_EDITED.cave}`;
    case "entry-unpinned":
      return `${shown}: ${tool(problem.tool)} has an entry that toolHashes does not pin, so no runtime would run it (it was added after cave build); ${EDITED[reader]}`;
    case "entry-hash":
      return reader === "runtime"
        ? `${shown}: the entry of ${tool(problem.tool)} does not match its hash in toolHashes (it says ${problem.pinned}, the entry hashes to ${problem.actual}): it was edited after cave build, so this tool is not run; regenerate the lock with cave build and deploy it unchanged (the other tools still run)`
        : `${shown}: ${tool(problem.tool)}: its entry was edited after cave build (toolHashes says ${problem.pinned}, the entry hashes to ${problem.actual}); ${ENTRY_EDITED.cave}`;
    case "entry-unreadable":
      return `${shown} could not be read again for the entry of ${tool(problem.tool)} (it was moved or removed after start-up); deploy the lock and its build folder unchanged, and restart`;
    case "shape":
      return `${shown} is not a valid lockfileVersion ${LOCKFILE_VERSION} lock: ${problem.detail}; ${REBUILD[reader]}`;
    case "dangling":
      return `${shown}: ${problem.at} names ${tool(problem.tool)}, which is not in the lock; run cave build again`;
    case "duplicate-export":
      return `${shown}: tools ${problem.tools.map((n) => JSON.stringify(n)).join(" and ")} both claim export ${problem.export}; run cave build again`;
    case "os-layer":
      return `${shown}: osLayerTools lists ${JSON.stringify(problem.listed)}, but the tools whose sandbox holds a power only the OS layer enforces are ${JSON.stringify(problem.needing)}; run cave build again`;
    case "outside-build-folder":
      return `${tool(problem.tool)}: ${problem.at} ${problem.path} is outside the build folder ${problem.buildDir}; run cave build to write the lock again`;
    case "pinned-twice":
      return `${problem.path} is pinned with two different hashes (${problem.first} and ${problem.second}); run cave build again`;
    case "build-folder-missing":
      return `the build folder ${problem.buildDir} does not exist; deploy it together with the lock, or run cave build`;
    case "file-missing":
      return `${problem.path} is missing (${problem.what}); deploy the build folder together with the lock, or run cave build`;
    case "not-a-file":
      return `${problem.path} is not a regular file (${problem.what}); deploy the files cave build wrote, not links to them`;
    case "file-hash":
      return `${problem.path} does not match the lock (${problem.what}): the lock says ${problem.pinned}, the file hashes to ${problem.actual}; run cave build and deploy its output unchanged`;
    case "unreferenced-file":
      return `${problem.path} is in the build folder but the lock does not reference it; remove it, or run cave build to rewrite the folder`;
    case "externals":
      return problem.message;
  }
}

function versionMessage(found: unknown, shown: string, reader: Reader): string {
  if (found === 1) {
    // A lock v1 is sealed by one hash over every entry; the runtime verifies entries one by one (docs/decisions.md).
    return reader === "runtime"
      ? `${shown} has lockfileVersion 1, written by an earlier cave build, but this runtime reads lockfileVersion ${LOCKFILE_VERSION}; run cave build with this cave version (the same sources give a lockfileVersion ${LOCKFILE_VERSION} lock; cave diff shows the two side by side) and deploy the new lock with its build folder`
      : `${shown} has lockfileVersion 1 (an earlier cave build): this Cave reads it for cave diff and cave verify, but its runtime runs lockfileVersion ${LOCKFILE_VERSION} only; run cave build and deploy the new lock with its build folder`;
  }
  const has = `${shown} has ${typeof found === "number" ? `lockfileVersion ${found}` : "no numeric lockfileVersion"}`;
  return reader === "runtime"
    ? `${has}, but this runtime reads lockfileVersion ${LOCKFILE_VERSION}; build with the cave version you deploy, or upgrade the runtime`
    : `${has}, but this Cave reads lockfileVersion 1 and ${LOCKFILE_VERSION}; build it with the Cave version that deploys it`;
}

/** The runtime's refusal for a problem. */
export function lockRuntimeError(problem: LockProblem, shown: string): RuntimeError {
  const code = LOCK_PROBLEM_CODES[problem.kind].runtime;
  if (code === undefined) throw new Error(`internal: the runtime reports no lock problem of kind ${problem.kind}`);
  return new RuntimeError(code, lockProblemMessage(problem, shown, "runtime"));
}
