import type { CodeEntry } from "./types.js";

/** CAVE90xx: checking a lock and its build folder (cave verify, runtime start-up, build --check/--frozen, cave diff, cave explain). */
export const LOCK_CODES = {
  CAVE9001: {
    title: "Lock file not found",
    doc: "There is no lock file where the configuration says it is. Run `cave build` to create it, or pass its path with --lock.",
  },
  CAVE9002: {
    title: "Lock file is not valid JSON",
    doc: "The lock file does not parse as JSON, so nothing in it can be trusted. Restore it from version control or run `cave build` to write it again.",
  },
  CAVE9003: {
    title: "Lockfile version not supported",
    doc: "The lock was written for a lockfileVersion this Cave does not know (it reads 1 and 2). Build it with the Cave version that runs it, or upgrade the runtime; the message names both versions.",
  },
  CAVE9004: {
    title: "Lock does not have the expected shape",
    doc: "A field of the lock is missing, has the wrong type, or holds a path outside the project or the build folder. The lock was edited or written by another tool: run `cave build` to write it again.",
  },
  CAVE9005: {
    title: "Lock integrity mismatch",
    doc: "The lock's content does not hash to its `integrity` value, or a tool's entry does not hash to its pin in `toolHashes` (or one of the two is missing), so it was edited after `cave build` wrote it. Run `cave build` and review the result with `cave diff` instead of editing the lock by hand.",
  },
  CAVE9006: {
    title: "Build file missing",
    doc: "A file the lock references (a staged bundle or a validator) is not in the build folder, or is not a regular file. Deploy the build folder together with the lock, or run `cave build` again.",
  },
  CAVE9007: {
    title: "Build file does not match its hash",
    doc: "A file of the build folder differs from what the lock pinned (even by one byte), so it is not what was reviewed. Run `cave build` again and deploy its output unchanged.",
  },
  CAVE9008: {
    title: "Unreferenced file in the build folder",
    doc: "The build folder holds a file the lock does not reference, so a deploy would ship code nobody reviewed. Remove it, or run `cave build`, which rewrites the folder from scratch.",
  },
  CAVE9009: {
    title: "Referenced tool missing from the lock",
    doc: "An agent's tools or a tool's nestedTools name a tool the lock does not define, so it could not run. Run `cave build` again instead of editing the lock.",
  },
  CAVE9010: {
    title: "Inconsistent lock facts",
    doc: "Facts in the lock contradict each other (two tools claim the same module export, or one build file is pinned with two different hashes), which `cave build` never writes. Run `cave build` again.",
  },
  CAVE9011: {
    title: "Build folder not found",
    doc: "The build folder named by the lock's buildDir does not exist. Deploy it together with the lock, or run `cave build`.",
  },
  CAVE9020: {
    title: "Lock out of date",
    doc: "Building the project gives a different cave.lock than the committed one (`cave build --check`), or a --frozen build (the default when CI is set) would have to change it. Run `cave build` locally, review `cave diff`, and commit the new lock.",
  },
  CAVE9030: {
    title: "Lock not readable at a git revision",
    doc: "`cave diff` could not read the lock at the git revision it was given (not a git repository, unknown revision, or git failed). Check the revision name, or pass lock files instead.",
  },
  CAVE9031: {
    title: "Diff input not found",
    doc: "An argument of `cave diff` is neither an existing lock file nor a git revision. Pass a path to a lock file or a revision such as main or HEAD~1.",
  },
  CAVE9120: {
    title: "External package does not match",
    doc: 'An external package the lock pins (cave.config.json "external") is not installed, is installed at another version than the lock pins, or (when `cave verify --write-manifest` recorded the installed files in cave.manifest.json) has files that changed since. Install what package-lock.json pins with npm ci; after reviewing an intended change, run `cave verify --write-manifest` again.',
  },
  CAVE9040: {
    title: "Unknown tool in cave explain",
    doc: "The lock has no tool of that name. Check the spelling (the message suggests the closest name) or run `cave build` first.",
  },
} as const satisfies Record<string, CodeEntry>;
