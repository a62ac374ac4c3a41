import { stableJson } from "./stable-json.js";
import { countByImpact, type LockDiff } from "./types.js";

/** The diff for bots: both sides, counts by impact, every change with its locked values. Keys are sorted. */
export function diffToJson(diff: LockDiff): Record<string, unknown> {
  const counts = countByImpact(diff.changes);
  return {
    base: diff.base,
    head: diff.head,
    changed: diff.changes.length > 0,
    summary: { ...counts, total: diff.changes.length },
    changes: diff.changes,
    warnings: diff.warnings,
  };
}

export function renderDiffJson(diff: LockDiff): string {
  return stableJson(diffToJson(diff));
}
