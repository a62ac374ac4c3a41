import { noNewPowers, SECTION_TITLES, sectionsOf, summaryLine } from "./sections.js";
import type { LockChange, LockDiff } from "./types.js";

/**
 * The diff as a reviewer reads it in a pull request: what the agent can now do that it could not
 * before comes first, then what breaks, then what needs a human, then the rest.
 */
export function renderDiffMarkdown(diff: LockDiff): string {
  const lines = [
    "### Cave lock review",
    "",
    `${code(diff.base.label)} → ${code(diff.head.label)}: ${escape(summaryLine(diff))}.`,
  ];
  for (const w of diff.warnings) lines.push("", `> **Warning ${w.code}**: ${escape(w.message)}`);
  const none = noNewPowers(diff);
  if (none !== null) lines.push("", `**${none}**`);
  for (const { section, changes } of sectionsOf(diff)) {
    lines.push("", `#### ${SECTION_TITLES[section]}`, "");
    for (const change of changes) {
      lines.push(`- ${subject(change)}: ${escape(change.message)}`);
      for (const detail of change.details) lines.push(`  - ${escape(detail.replace(/\s*[\r\n]+\s*/g, " "))}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function subject(change: LockChange): string {
  if (change.subject.name === null) return "**lock**";
  return `**${change.subject.type} ${code(change.subject.name)}**`;
}

/** A code span whose fence is longer than any run of backticks inside. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Text from the lock (descriptions, patterns) must not turn into markup, links or HTML. */
function escape(text: string): string {
  return text.replace(/[\\`*<>[\]|]/g, (c) => `\\${c}`).replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, "\\_");
}
