import { plural } from "./describe.js";
import { SECTIONS, countByImpact, sectionOf, type LockChange, type LockDiff, type Section } from "./types.js";

/** Section headings: the first answers "what can the agent do now that it could not before". */
export const SECTION_TITLES: Readonly<Record<Section, string>> = {
  risky: "New powers: what the agent can do now that it could not before",
  breaking: "Breaking changes",
  unclassified: "Needs review: changes cave diff cannot classify",
  other: "Other changes",
};

/**
 * Said when there are changes but none gives the agent a new power: the reviewer's first question,
 * answered. With unclassified changes it cannot be said outright.
 */
export function noNewPowers(diff: LockDiff): string | null {
  if (diff.changes.length === 0 || diff.changes.some((c) => c.impact === "risky")) return null;
  return diff.changes.some((c) => c.impact === "unclassified")
    ? "No new powers among the changes cave diff can classify; review the unclassified ones below."
    : "No new powers: the agent cannot do anything it could not do before.";
}

/** The changes of each non-empty section, in review order. */
export function sectionsOf(diff: LockDiff): Array<{ section: Section; changes: LockChange[] }> {
  return SECTIONS.map((section) => ({
    section,
    changes: diff.changes.filter((c) => sectionOf(c.impact) === section),
  })).filter((s) => s.changes.length > 0);
}

/** "5 changes: 2 new powers, 1 breaking, 1 to review, 1 other". */
export function summaryLine(diff: LockDiff): string {
  if (diff.changes.length === 0) return "no changes: both locks give the agent the same tools, powers and contracts";
  const c = countByImpact(diff.changes);
  return `${plural(diff.changes.length, "change")}: ${plural(c.risky, "new power")}, ${c.breaking} breaking, ${c.unclassified} to review, ${c.compatible + c.info} other`;
}

/** `tool "x"`, `agent "y"`, `lock`. */
export function subjectLabel(change: LockChange): string {
  return change.subject.name === null
    ? change.subject.type
    : `${change.subject.type} ${JSON.stringify(change.subject.name)}`;
}
