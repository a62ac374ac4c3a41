import type { CodeEntry } from "./types.js";

/** CAVE2xxx: configuration and discovery (and build options). */
export const DISCOVER_CODES = {
  CAVE2001: {
    title: "Unknown configuration key",
    doc: 'cave.config.json (or the "cave" key of package.json) has a key Cave does not know. Known keys: include, exclude, lock, outDir.',
  },
  CAVE2002: {
    title: "Unreadable configuration",
    doc: "cave.config.json or package.json is not valid JSON, or the configuration is not an object. Fix the syntax.",
  },
  CAVE2003: {
    title: "Configuration in two places",
    doc: 'Both cave.config.json and a "cave" key in package.json exist; Cave would not know which wins. Keep one.',
  },
  CAVE2004: {
    title: "Invalid configuration value",
    doc: "include/exclude must be non-empty arrays of glob strings; lock and outDir must be strings.",
  },
  CAVE2005: {
    title: "No tool modules",
    doc: "No file matched the include globs (or none defines a tool). The lock will be empty: check include/exclude.",
  },
  CAVE2006: {
    title: "Path outside the project",
    doc: "lock and outDir must be relative paths inside the project root (no absolute paths, no '..'), and must not overlap.",
  },
  CAVE2007: {
    title: "Invalid build option",
    doc: "build() was called with an option it does not know or a value of the wrong type.",
  },
} as const satisfies Record<string, CodeEntry>;
