/**
 * The compression transforms Cave knows, shared by the planner (which stages and pins their code)
 * and the runtime (which verifies and applies it). Changing what a transform does means a new version.
 */
export interface TransformInfo {
  readonly id: string;
  readonly version: number;
  readonly lossless: boolean;
  /** One line, for the lock's reason and the docs. */
  readonly summary: string;
}

export const TRANSFORMS: readonly TransformInfo[] = Object.freeze([
  { id: "table", version: 1, lossless: true, summary: "arrays of flat records as column names once, then rows" },
  { id: "compact-json", version: 1, lossless: true, summary: "JSON without insignificant whitespace" },
  {
    id: "elide",
    version: 1,
    lossless: false,
    summary: "head and tail of long strings and arrays, saying what was elided",
  },
]);

/** Where a transform's staged module goes in the build folder (POSIX, relative to the project root). */
export function transformModulePath(outDir: string, id: string, version: number): string {
  return `${outDir.replace(/\/+$/, "")}/transforms/${id}@${version}.mjs`;
}
