import { expect } from "vitest";
import { build } from "../../compiler/build.js";
import { copyProject } from "../support/projects.js";
import type { Probe } from "./projects/pipeline/tools/probe.js";

/** Copies test/runtime/projects/<name> to a temporary root, builds it with the real compiler, and returns the root. */
export async function builtProject(name: string): Promise<string> {
  const root = copyProject(`test/runtime/projects/${name}`);
  const result = await build({ root });
  expect(
    result.diagnostics.filter((d) => d.severity === "error"),
    "the test project must build",
  ).toEqual([]);
  expect(result.ok).toBe(true);
  return root;
}

/** The tool code's observations (see projects/pipeline/tools/probe.ts), emptied. */
export function freshProbe(): Probe {
  const g = globalThis as { __caveProbe?: Probe };
  g.__caveProbe = { loads: {}, calls: {}, aborted: {}, flags: {}, late: [] };
  return g.__caveProbe;
}

/** The probe the tools are writing to right now. */
export function probe(): Probe {
  const g = globalThis as { __caveProbe?: Probe };
  g.__caveProbe ??= { loads: {}, calls: {}, aborted: {}, flags: {}, late: [] };
  return g.__caveProbe;
}
