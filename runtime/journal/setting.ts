import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reasonOf } from "./journal-error.js";

/** The environment variable a deploy sets to choose the journal when createRuntime() is given none. */
export const JOURNAL_ENV = "CAVE_JOURNAL";

/**
 * The journal setting when createRuntime() names none: CAVE_JOURNAL, else the `journal` key of
 * <root>/cave.config.json (or of the "cave" key of package.json), else undefined. Where it came from
 * is returned for messages.
 */
export function configuredJournal(root: string, env: Readonly<Record<string, string | undefined>>): { setting: string; from: string } | undefined {
  const fromEnv = env[JOURNAL_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return { setting: fromEnv, from: JOURNAL_ENV };
  for (const [file, pick] of [["cave.config.json", (v: unknown) => v], ["package.json", (v: unknown) => (v as { cave?: unknown } | null)?.cave]] as const) {
    let text: string;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch (thrown) {
      if (reasonOf(thrown) === "ENOENT") continue;
      throw thrown;
    }
    let config: unknown;
    try {
      config = pick(JSON.parse(text));
    } catch {
      // cave build reports malformed configuration (CAVE2002); the runtime does not guess.
      continue;
    }
    const journal = (config as { journal?: unknown } | null | undefined)?.journal;
    if (typeof journal === "string" && journal !== "") return { setting: journal, from: file };
  }
  return undefined;
}
