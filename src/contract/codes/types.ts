/** One entry of the code registry: what went wrong and what the user should do about it. */
export interface CodeEntry {
  /** Short title, shown in docs/diagnostics.md. */
  readonly title: string;
  /** One or two sentences: when this is reported and how to fix it. */
  readonly doc: string;
}
