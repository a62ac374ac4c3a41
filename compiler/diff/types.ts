/**
 * How much a change matters to a reviewer, from the side of whoever is affected:
 * - risky: the agent can do something it could not before (new tool, escalated effect, new env name, sandbox off...);
 * - breaking: something that worked before stops working (for callers of a tool, or consumers of its result);
 * - unclassified: changed in a way cave diff cannot judge (never reported as compatible);
 * - compatible: a schema change nobody who relied on the old contract notices;
 * - info: worth knowing, with no effect on what the agent may do or on who uses the tool.
 */
export type Impact = "risky" | "breaking" | "unclassified" | "compatible" | "info";

export const IMPACTS: readonly Impact[] = ["risky", "breaking", "unclassified", "compatible", "info"];

export type ChangeKind =
  | "lock"
  | "agent-added"
  | "agent-removed"
  | "agent-moved"
  | "agent-description"
  | "agent-tool-added"
  | "agent-tool-removed"
  | "tool-added"
  | "tool-removed"
  | "tool-renamed"
  | "tool-moved"
  | "description"
  | "effect"
  | "timeout"
  | "allow-repeat"
  | "sandbox-mode"
  | "sandbox-env-added"
  | "sandbox-env-removed"
  | "egress-host-added"
  | "egress-host-removed"
  | "secret-added"
  | "secret-removed"
  | "secret-changed"
  | "secret-host-added"
  | "secret-host-removed"
  | "sandbox-fs-added"
  | "sandbox-fs-removed"
  | "sandbox-addons"
  | "nested-tool-added"
  | "nested-tool-removed"
  | "input-schema"
  | "output-schema"
  | "input-validation"
  | "output-validation"
  | "opaque-semantics"
  | "result-policy"
  | "result-plan"
  | "implementation"
  | "unclassified";

/** What a change is about: a tool or agent by name (its head name; its base name when removed), or the lock itself. */
export interface ChangeSubject {
  readonly type: "lock" | "agent" | "tool";
  readonly name: string | null;
}

/** One reviewable change between two locks. */
export interface LockChange {
  readonly kind: ChangeKind;
  readonly impact: Impact;
  readonly subject: ChangeSubject;
  /** For schema changes: the field path inside the input or output ("" is the whole value); null otherwise. */
  readonly path: string | null;
  /** One sentence in plain words, without the subject. */
  readonly message: string;
  /** Further lines (changed files, the old and new description...). */
  readonly details: readonly string[];
  /** The locked values involved (JSON), or null when there is none. */
  readonly before: unknown;
  readonly after: unknown;
}

/** Where a lock came from, for the heading: a file, a git revision, or the working tree. */
export interface LockSide {
  readonly label: string;
  readonly integrity: string | null;
}

export interface LockDiff {
  readonly base: LockSide;
  readonly head: LockSide;
  /** In review order: sections first (risky, breaking, unclassified, then the rest), then subject and kind. */
  readonly changes: readonly LockChange[];
  /** Problems with either lock that do not stop the diff (a stale integrity, a dangling name). */
  readonly warnings: ReadonlyArray<{ readonly code: string; readonly message: string }>;
}

export function countByImpact(changes: readonly LockChange[]): Record<Impact, number> {
  const counts: Record<Impact, number> = { risky: 0, breaking: 0, unclassified: 0, compatible: 0, info: 0 };
  for (const change of changes) counts[change.impact]++;
  return counts;
}

/** The sections a review reads in order; compatible and info changes share the last one. */
export type Section = "risky" | "breaking" | "unclassified" | "other";

export const SECTIONS: readonly Section[] = ["risky", "breaking", "unclassified", "other"];

export function sectionOf(impact: Impact): Section {
  return impact === "compatible" || impact === "info" ? "other" : impact;
}
