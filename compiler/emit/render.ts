import type { CaveLock } from "../../src/contract/lock.js";

/** Deep copy with object keys in code-unit order, so the rendered text is the same whatever order facts were gathered in. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** The lock as reviewers read it: sorted keys, two-space indent, one fact per line, LF, trailing newline. */
export function renderLock(lock: CaveLock): string {
  return `${JSON.stringify(sortKeys(lock), null, 2)}\n`;
}
