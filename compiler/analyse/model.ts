import type { ts } from "./typescript.js";

/** One parsed module. */
export interface Module {
  /** POSIX path relative to the project root (`../` for a workspace package beside it). */
  readonly file: string;
  readonly sf: ts.SourceFile;
  /** One of the files the build was given: only these may define locked tools and agents. */
  readonly inBuild: boolean;
  /**
   * The module of this project an import specifier names (a relative path, a tsconfig `paths`/`baseUrl` alias, a
   * workspace package), parsed; null for an installed package, "cave" or a file that cannot be read.
   */
  readonly imported: (specifier: string) => Module | null;
}

/** The three definition functions of the "cave" package that analysis follows. */
export type CaveFunction = "tool" | "agent" | "artifact";
export const CAVE_FUNCTIONS: readonly CaveFunction[] = ["tool", "agent", "artifact"];
export const CAVE_PACKAGE = "cave";

export function isCaveFunction(name: string): name is CaveFunction {
  return (CAVE_FUNCTIONS as readonly string[]).includes(name);
}
