import { expect } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime, MemoryReceiptSink, type Runtime } from "../../runtime/index.js";
import { copyProject } from "../support/projects.js";
import { REPO_ROOT } from "../support/golden.js";
import { join } from "node:path";

/** The CLI as a user runs it (built by npm run build). */
export const CLI = join(REPO_ROOT, "dist/compiler/cli/bin.js");

/** Copies test/adapters/projects/<name> (or an example) to a temporary root and builds it with the real compiler. */
export async function builtProject(from: string): Promise<string> {
  const root = copyProject(from);
  const result = await build({ root });
  expect(
    result.diagnostics.filter((d) => d.severity === "error"),
    "the test project must build",
  ).toEqual([]);
  expect(result.ok).toBe(true);
  return root;
}

/** The JSON argument a content header tells the model to pass to a reserved tool. */
export function argumentOf(content: string, tool: "cave_page" | "cave_recover"): Record<string, unknown> {
  const match = new RegExp(`${tool} (\\{[^}]*\\})`).exec(content);
  if (match === null) throw new Error(`no ${tool} call in ${content.slice(0, 300)}`);
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

/** A host-mode runtime over a built project, with its receipts in memory. */
export async function hostRuntime(root: string): Promise<{ runtime: Runtime; sink: MemoryReceiptSink }> {
  const sink = new MemoryReceiptSink();
  return { runtime: await createRuntime({ root, mode: "host", receipts: sink }), sink };
}
