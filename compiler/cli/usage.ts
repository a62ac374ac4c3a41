import type { CliIO } from "./io.js";

/** Bad flags: say what was wrong and how the command is used; exit 1. */
export function usageError(io: CliIO, thrown: unknown, usage: string): number {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  io.stderr(`${message}\nusage: ${usage}\n`);
  return 1;
}
