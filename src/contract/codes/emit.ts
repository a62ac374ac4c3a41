import type { CodeEntry } from "./types.js";

/** CAVE8xxx: writing the lock and the build folder. */
export const EMIT_CODES = {
  CAVE8001: {
    title: "Could not write the build output",
    doc: "Writing the build folder or the lock failed (permissions, disk space). Nothing is half-written: the previous lock and folder stay as they were.",
  },
} as const satisfies Record<string, CodeEntry>;
