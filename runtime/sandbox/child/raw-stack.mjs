// @ts-check
// A thrown error's raw V8 stack, as the sandbox child, the in-process dispatcher and the build-time evaluator send it
// to be mapped to original files (runtime/stack/map-stack.ts). Plain JavaScript with no imports: the sandbox child
// loads it as it is.

/** What of a raw stack is kept: 20 frames of long paths fit. */
export const RAW_STACK_CHARS = 16384;

/** The thrown error's own stack text, read once, never throwing (a getter may); undefined when it has none. @param {unknown} thrown @returns {string | undefined} */
export function rawStack(thrown) {
  try {
    const stack = thrown instanceof Error ? thrown.stack : undefined;
    return typeof stack === "string" ? stack.slice(0, RAW_STACK_CHARS) : undefined;
  } catch {
    return undefined;
  }
}
