import type { CaveCode } from "../src/contract/codes.js";
import { thrownMessage } from "../src/contract/thrown-message.mjs";

/** A finding of a compiler pass. Passes collect these; only the CLI renders them. */
export interface Diagnostic {
  readonly code: CaveCode;
  readonly severity: "error" | "warning";
  readonly message: string;
  /** POSIX path relative to the project root, or null when the finding is not about one file. */
  readonly file: string | null;
  /** 1-based, or null. */
  readonly line: number | null;
  /** 1-based, or null. */
  readonly column: number | null;
  /** What to do about it. */
  readonly hint: string;
}

export interface Location {
  readonly file: string | null;
  readonly line?: number | null;
  readonly column?: number | null;
}

export function error(code: CaveCode, message: string, hint: string, at: Location = { file: null }): Diagnostic {
  return { code, severity: "error", message, file: at.file, line: at.line ?? null, column: at.column ?? null, hint };
}

export function warning(code: CaveCode, message: string, hint: string, at: Location = { file: null }): Diagnostic {
  return { code, severity: "warning", message, file: at.file, line: at.line ?? null, column: at.column ?? null, hint };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Stable order for output and golden files: by file, line, column, code, message. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) =>
    [
      d.file ?? "",
      String(d.line ?? 0).padStart(8, "0"),
      String(d.column ?? 0).padStart(8, "0"),
      d.code,
      d.message,
    ].join("\u0000");
  return [...diagnostics].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Turns an unexpected throw (from user code or a dependency) into text that keeps the cause, without this machine's absolute paths. */
export function describeThrown(thrown: unknown, root: string): string {
  return stripRoot(thrownMessage(thrown, { plainName: true, limit: Number.POSITIVE_INFINITY }), root);
}

/** Removes the project root (and the compiler's own location) from a message. */
export function stripRoot(text: string, root: string): string {
  const posixRoot = root.replaceAll("\\", "/").replace(/\/$/, "");
  return text.replaceAll(`file://${posixRoot}/`, "").replaceAll(`${posixRoot}/`, "").replaceAll(posixRoot, ".");
}
