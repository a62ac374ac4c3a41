// @ts-check
// Turning a thrown value (anything: an Error, a string, an object whose getters throw) into text, for the layers below
// the adapters (the compiler and the runtime import this file; adapters see only runtime/index.ts). The sandbox child,
// which may read only its own folder, imports the byte-identical copy runtime/sandbox/child/thrown-message.mjs
// (test/contract/thrown-message.test.ts holds the two equal).

/** What thrownMessage says when reading the thrown value throws again. */
export const UNREADABLE = "an error whose message could not be read";

/**
 * An Error's message, or any other thrown value as text: for messages that quote a cause.
 * @param {unknown} thrown
 * @returns {string}
 */
export function thrownText(thrown) {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/**
 * A thrown value's message for an outcome or a diagnostic: never throws, and never longer than `limit` characters
 * (then cut, with "…"). An Error's name leads unless it is the plain "Error" (`plainName` keeps that too).
 * @param {unknown} thrown
 * @param {{ readonly limit?: number, readonly plainName?: boolean }} [how]
 * @returns {string}
 */
export function thrownMessage(thrown, how = {}) {
  const { limit = 1000, plainName = false } = how;
  let text;
  try {
    text =
      thrown instanceof Error
        ? `${typeof thrown.name === "string" && (plainName || thrown.name !== "Error") ? `${thrown.name}: ` : ""}${String(thrown.message)}`
        : String(thrown);
  } catch {
    text = UNREADABLE;
  }
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
