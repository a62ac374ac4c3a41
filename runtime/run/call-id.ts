import { randomUUID } from "node:crypto";

/** A random version-4 UUID without its last 12 hex digits: this process's call ids share it. */
const prefix = randomUUID().slice(0, 24);
/** Calls in this process, from a random start: the last 12 hex digits. */
let counter = Math.floor(Math.random() * 0x1000000);
/** The id without its last 2 hex digits, which change every call (formatted once per 256 calls). */
let high = "";
const LOW = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * A call id: a UUID (version-4 layout, 36 characters) unique in this process and, through its 74
 * random bits, across processes. A fresh random UUID per call costs more than the rest of a small
 * call's bookkeeping; ids need to be unique, not unpredictable (nothing is authorised by one).
 */
export function nextCallId(): string {
  counter = counter >= 0xffffffffffff ? 0 : counter + 1;
  const low = counter & 0xff;
  if (low === 0 || high === "")
    high =
      prefix +
      Math.floor(counter / 256)
        .toString(16)
        .padStart(10, "0");
  return high + LOW[low]!;
}
