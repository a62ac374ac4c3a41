import type { Diagnostic } from "../diagnostics.js";

/** Properties of a GitHub Actions workflow command (::error file=...,line=...::message). */
export interface AnnotationProperties {
  readonly file?: string | null;
  readonly line?: number | null;
  readonly col?: number | null;
  readonly title?: string | null;
}

/** Message data: % first, then the line breaks GitHub would otherwise end the command at. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Property values additionally escape the separators of the property list. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** One workflow command line: `::error file=a.ts,line=3,col=5,title=CAVE2003::message`. */
export function annotation(
  level: "error" | "warning" | "notice",
  message: string,
  properties: AnnotationProperties = {},
): string {
  const props: string[] = [];
  if (properties.file) props.push(`file=${escapeProperty(properties.file)}`);
  if (properties.line != null) props.push(`line=${properties.line}`);
  if (properties.col != null) props.push(`col=${properties.col}`);
  if (properties.title) props.push(`title=${escapeProperty(properties.title)}`);
  return `::${level}${props.length > 0 ? ` ${props.join(",")}` : ""}::${escapeData(message)}\n`;
}

/** A compiler diagnostic as an annotation on its file and line, with its hint on a second line. */
export function diagnosticAnnotation(d: Diagnostic): string {
  return annotation(d.severity, `${d.message}\nhint: ${d.hint}`, {
    file: d.file,
    line: d.line,
    col: d.column,
    title: String(d.code),
  });
}
