import type { Message } from "esbuild";
import { error, stripRoot, warning, type Diagnostic } from "../diagnostics.js";
import { OUTSIDE_IMPORT, fromPrettyPath } from "./plugin.js";
import { place, type Roots } from "./placement.js";

/** Hints for esbuild's most common errors, by the start of its message. */
const HINTS: readonly (readonly [RegExp, string])[] = [
  [
    /^Could not resolve/,
    "Install the package or fix the import path: a tool module is staged together with everything it imports.",
  ],
  [
    /^No loader is configured/,
    "Tool modules may import JavaScript, TypeScript and JSON only; move other assets out of the module graph.",
  ],
  [/^(Expected|Unexpected|Unterminated|The symbol)/, "Fix the syntax error at this location."],
];
const DEFAULT_HINT =
  "Fix the problem at this location; staging bundles each tool module and everything it imports with esbuild.";

/**
 * Turns esbuild's messages into diagnostics located in the project by canonical path. The working
 * directory is the one the messages' paths are relative to (the project root, or the SDK's root).
 */
export function toDiagnostics(
  messages: readonly Message[],
  severity: "error" | "warning",
  workingDir: string,
  roots: Roots,
): Diagnostic[] {
  return messages.map((message) => {
    const at = locate(message, workingDir, roots);
    const text = clean(message.text, roots);
    if (message.detail === OUTSIDE_IMPORT) {
      return error(
        "CAVE4002",
        `${at.file ?? "a staged file"} imports ${text}`,
        'Staged bundles may only hold project files, the cave SDK, installed packages and the packages of the project\'s npm workspace (the "workspaces" of a package.json above the project that lists it). Copy the file into the project, or make its folder a workspace package; a symlink pointing anywhere else out of the project is refused.',
        at,
      );
    }
    const notes = message.notes.map((note) => clean(note.text, roots)).filter((note) => note !== "");
    const full = notes.length > 0 ? `${text} (${notes.join(" ")})` : text;
    if (severity === "warning")
      return warning(
        "CAVE4004",
        `esbuild warning: ${full}`,
        "Fix the code at this location; the bundle is still produced.",
        at,
      );
    const hint = HINTS.find(([pattern]) => pattern.test(message.text))?.[1] ?? DEFAULT_HINT;
    return error("CAVE4001", `esbuild: ${full}`, hint, at);
  });
}

function locate(
  message: Message,
  workingDir: string,
  roots: Roots,
): { file: string | null; line: number | null; column: number | null } {
  const location = message.location;
  if (!location) return { file: null, line: null, column: null };
  const placement = place(fromPrettyPath(workingDir, location.file), roots);
  const file = placement.kind === "outside" ? null : placement.id;
  return { file, line: location.line, column: location.column + 1 };
}

function clean(text: string, roots: Roots): string {
  return stripRoot(stripRoot(text, roots.project), roots.sdk);
}
