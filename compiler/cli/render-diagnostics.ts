import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { styler, type CliIO } from "./io.js";

/** `file:line:col: error CAVE2003: message`, a code frame when the file is readable, then the hint. */
export function renderDiagnostic(d: Diagnostic, root: string, io: CliIO): string {
  const style = styler(io);
  const where = d.file === null ? "cave" : [d.file, d.line, d.column].filter((part) => part !== null).join(":");
  const severity = d.severity === "error" ? style("red", "error") : style("yellow", "warning");
  const lines = [`${style("bold", where)}: ${severity} ${d.code}: ${d.message}`];
  const frame = d.file !== null && d.line !== null ? codeFrame(root, d.file, d.line, d.column) : undefined;
  if (frame) lines.push(...frame.map((line) => style("dim", line)));
  lines.push(`  ${style("cyan", "hint")}: ${d.hint}`);
  return `${lines.join("\n")}\n`;
}

function codeFrame(root: string, file: string, line: number, column: number | null): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, file), "utf8");
  } catch {
    return undefined;
  }
  const source = text.split(/\r?\n/)[line - 1];
  if (source === undefined) return undefined;
  const gutter = String(line);
  const out = [`  ${gutter} | ${source.replaceAll("\t", " ")}`];
  if (column !== null) out.push(`  ${" ".repeat(gutter.length)} | ${" ".repeat(Math.max(0, column - 1))}^`);
  return out;
}

/** One summary line: counts of errors and warnings. */
export function summarise(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(errors, "error")}, ${plural(warnings, "warning")}`;
}
