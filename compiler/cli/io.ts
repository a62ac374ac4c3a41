import { escapeControls } from "./safe-text.js";

/** Everything a command touches outside itself, so tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (colour only then). */
  readonly isTTY: boolean;
}

export function processIO(): CliIO {
  // Captured now: while a command runs tool code it may point process.stdout at stderr (stdout-to-stderr.ts).
  const write = process.stdout.write.bind(process.stdout);
  return {
    stdout: (text) => write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/** Whether output is styled: on a TTY without NO_COLOR. */
function colourOn(io: CliIO): boolean {
  return io.isTTY && !io.env.NO_COLOR;
}

/**
 * The same io, except that everything written goes through escapeControls: descriptions, error
 * messages, names and source lines come from tool authors and tools, and no terminal sequence of
 * theirs reaches the reviewer's terminal (only the styler's own colours pass, and only when on).
 */
export function safeIO(io: CliIO): CliIO {
  const colour = colourOn(io);
  return {
    ...io,
    stdout: (text) => io.stdout(escapeControls(text, colour)),
    stderr: (text) => io.stderr(escapeControls(text, colour)),
  };
}

/** Terminal styling that disappears off a TTY or with NO_COLOR. */
export function styler(
  io: CliIO,
): (style: "red" | "yellow" | "green" | "cyan" | "bold" | "dim", text: string) => string {
  const on = colourOn(io);
  const codes = {
    red: [31, 39],
    yellow: [33, 39],
    green: [32, 39],
    cyan: [36, 39],
    bold: [1, 22],
    dim: [2, 22],
  } as const;
  return (style, text) => (on ? `\u001b[${codes[style][0]}m${text}\u001b[${codes[style][1]}m` : text);
}
