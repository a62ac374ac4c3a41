import { configuredValue } from "../options/project-config.js";

/** The environment variable a deploy sets to choose the journal when createRuntime() is given none. */
export const JOURNAL_ENV = "CAVE_JOURNAL";

/**
 * The journal setting when createRuntime() names none: CAVE_JOURNAL, else the `journal` key of
 * <root>/cave.config.json (or of the "cave" key of package.json), else undefined. Where it came from
 * is returned for messages.
 */
export function configuredJournal(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): { setting: string; from: string } | undefined {
  const fromEnv = env[JOURNAL_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return { setting: fromEnv, from: JOURNAL_ENV };
  const configured = configuredValue(root, "journal");
  if (typeof configured?.value === "string" && configured.value !== "")
    return { setting: configured.value, from: configured.from };
  return undefined;
}

/**
 * A journal setting as messages show it: a password in a URL-like part is masked. Settings name the
 * environment variable holding a connection string, but a user may paste the string itself, and the
 * message refusing it must not repeat the password into logs.
 */
export function shownSetting(setting: string): string {
  return JSON.stringify(setting.slice(0, 200).replace(/(\/\/[^/:@\s]*:)[^@/\s]*@/g, "$1***@"));
}
