import { noNewPowers, SECTION_TITLES, sectionsOf, subjectLabel, summaryLine } from "./sections.js";
import type { LockDiff, Section } from "./types.js";

export type Style = (style: "red" | "yellow" | "green" | "cyan" | "bold" | "dim", text: string) => string;

const plain: Style = (_style, text) => text;

const MARK: Readonly<Record<Section, string>> = { risky: "+", breaking: "!", unclassified: "?", other: "~" };
const COLOUR: Readonly<Record<Section, "red" | "yellow" | "cyan">> = {
  risky: "red",
  breaking: "red",
  unclassified: "yellow",
  other: "cyan",
};

/** The diff for a terminal: heading, summary, then one line per change by section (colour only when `style` adds it). */
export function renderDiffText(diff: LockDiff, style: Style = plain): string {
  const lines = [style("bold", `cave diff: ${diff.base.label} → ${diff.head.label}`), summaryLine(diff)];
  const none = noNewPowers(diff);
  if (none !== null) lines.push(none);
  for (const { section, changes } of sectionsOf(diff)) {
    lines.push("", style("bold", SECTION_TITLES[section]));
    for (const change of changes) {
      lines.push(
        `  ${style(COLOUR[section], MARK[section])} ${style("bold", subjectLabel(change))}: ${change.message}`,
      );
      for (const detail of change.details) lines.push(style("dim", `      ${oneLine(detail)}`));
    }
  }
  if (diff.warnings.length > 0) {
    lines.push("");
    for (const w of diff.warnings) lines.push(`${style("yellow", "warning")} ${w.code}: ${w.message}`);
  }
  return `${lines.join("\n")}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}
