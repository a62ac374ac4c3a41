import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A value the project's configuration gives a key, and which file gave it (for messages). */
export interface ConfiguredValue {
  readonly value: unknown;
  readonly from: "cave.config.json" | "package.json";
}

const SOURCES = [
  ["cave.config.json", (parsed: unknown) => parsed],
  ["package.json", (parsed: unknown) => (parsed as { cave?: unknown } | null)?.cave],
] as const;

/**
 * What <root>/cave.config.json (else the "cave" key of package.json) says for `key`, or undefined when neither
 * sets it. The runtime reads deploy settings (journal, isolation) this way; a file that is missing or not JSON
 * is passed over, because cave build reports malformed configuration (CAVE2002) and the runtime does not guess.
 */
export function configuredValue(root: string, key: string): ConfiguredValue | undefined {
  for (const [from, pick] of SOURCES) {
    let text: string;
    try {
      text = readFileSync(join(root, from), "utf8");
    } catch (thrown) {
      if ((thrown as { code?: unknown } | null)?.code === "ENOENT") continue;
      throw thrown;
    }
    let config: unknown;
    try {
      config = pick(JSON.parse(text));
    } catch {
      continue;
    }
    if (typeof config !== "object" || config === null || Array.isArray(config) || !Object.hasOwn(config, key)) continue;
    return { value: (config as Record<string, unknown>)[key], from };
  }
  return undefined;
}
