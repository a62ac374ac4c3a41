import type { CallOutcome, Receipt, Run, ToolInfo } from "../../runtime/index.js";

/**
 * What every adapter shows a model of an outcome. A failure is `CODE: message`: the code is the
 * stable, documented name (docs/runtime.md), the message says what to do.
 */
export function failureText(error: { readonly code: string; readonly message: string }): string {
  return `${error.code}: ${error.message}`;
}

/** Content as text: a string as is (a page, a view with a reference), anything else as compact JSON. */
export function contentText(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** A failed call as an Error, for hosts where throwing is the idiom; the code and receipt stay readable. */
export class CaveCallError extends Error {
  readonly code: string;
  readonly receipt: Receipt;

  constructor(outcome: CallOutcome & { ok: false }) {
    super(failureText(outcome.error));
    this.name = "CaveCallError";
    this.code = outcome.error.code;
    this.receipt = outcome.receipt;
  }
}

/**
 * The tools an adapter exposes: every callable tool (locked ones and the reserved cave_page /
 * cave_recover the lock's plans need), or the named ones. A name that is not callable is an error
 * now, not a tool that fails at its first call.
 */
export function selectTools(run: Run, names: readonly string[] | undefined, at: string): ToolInfo[] {
  const all = run.runtime.describeTools();
  if (names === undefined) return all;
  if (!Array.isArray(names)) throw new TypeError(`${at}: tools must be an array of tool names`);
  const byName = new Map(all.map((info) => [info.name, info]));
  const picked: ToolInfo[] = [];
  for (const name of names) {
    const info = typeof name === "string" ? byName.get(name) : undefined;
    if (info === undefined)
      throw new TypeError(
        `${at}: ${JSON.stringify(name)} is not a callable tool of this lock; callable: ${all.map((t) => t.name).join(", ")}`,
      );
    picked.push(info);
  }
  return picked;
}

/** Refuses unknown option keys, as every cave option object does. */
export function checkKeys(options: unknown, known: readonly string[], at: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new TypeError(`${at} options must be an object`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key))
      throw new TypeError(`${at}: unknown option ${JSON.stringify(key)}; known options: ${known.join(", ")}`);
  }
  return options as Record<string, unknown>;
}
