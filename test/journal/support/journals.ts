import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { build } from "../../../compiler/build.js";
import { copyProject } from "../../support/projects.js";

/** Both backends every durable-run test runs on. */
export const BACKENDS = ["sqlite", "file"] as const;
export type Backend = (typeof BACKENDS)[number];

/** A fresh journal setting of `backend` in its own temporary folder; `dir` is that folder. */
export function freshJournal(backend: Backend): { setting: string; dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), `cave-durable-${backend}-`));
  const path = join(dir, backend === "sqlite" ? "journal.db" : "journal.jsonl");
  return { setting: `${backend}:${path}`, dir, path };
}

/** Every byte the backend wrote under `dir` (database, WAL, file journal, stored results), as latin1 text for grepping. */
export function everythingWritten(dir: string): string {
  let text = "";
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(at, entry.name));
      else text += readFileSync(join(at, entry.name)).toString("latin1");
    }
  };
  walk(dir);
  return text;
}

/** Copies test/journal/projects/durable to a temporary root and builds it with the real compiler. */
export async function builtDurableProject(): Promise<string> {
  const root = copyProject("test/journal/projects/durable");
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error"), "the test project must build").toEqual([]);
  return root;
}

/** The lines of an effect file (empty when the tool never ran). */
export function effects(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
  } catch {
    return [];
  }
}
