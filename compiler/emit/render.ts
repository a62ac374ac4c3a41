import { dictionary } from "../../src/contract/dictionary.js";
import type { CaveLock } from "../../src/contract/lock.js";

/**
 * Deep copy with object keys in code-unit order, so the rendered text is the same whatever order facts were gathered
 * in. Every object of the copy is prototype-free (src/contract/dictionary.ts): the lock is keyed by tool, agent, file
 * and property names, and a name such as "constructor" must never find Object.prototype's member.
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = dictionary();
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * Whether every object in the value already lists its keys in code-unit order, that is, sortKeys would give the same
 * order: a walk that copies nothing (the planner hands over a lock sorted this way, see plan/index.ts).
 */
export function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (value === null || typeof value !== "object") return true;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1]! < keys[i]!)) return false;
    if (!keysSorted((value as Record<string, unknown>)[keys[i]!])) return false;
  }
  return true;
}

/** The lock as reviewers read it: sorted keys, two-space indent, one fact per line, LF, trailing newline. */
export function renderLock(lock: CaveLock): string {
  return `${JSON.stringify(keysSorted(lock) ? lock : sortKeys(lock), null, 2)}\n`;
}
