import type { CliIO } from "./io.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/** Bad flags: say what was wrong and how the command is used; exit 1. */
export function usageError(io: CliIO, thrown: unknown, usage: string): number {
  io.stderr(`${thrownText(thrown)}\nusage: ${usage}\n`);
  return 1;
}
