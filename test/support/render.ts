import { renderDiagnostic } from "../../compiler/cli/render-diagnostics.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { CliIO } from "../../compiler/cli/io.js";

const plainIO: CliIO = { stdout() {}, stderr() {}, cwd: "/", env: {}, isTTY: false };

/** Diagnostics rendered as the CLI prints them (no colour), for golden files. */
export function renderAll(diagnostics: readonly Diagnostic[], root: string): string {
  return diagnostics.map((d) => renderDiagnostic(d, root, plainIO)).join("");
}
