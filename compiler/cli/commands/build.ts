import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { build } from "../../build.js";
import { renderDiagnostic, summarise } from "../render-diagnostics.js";
import type { CliIO } from "../io.js";
import { usageError } from "../usage.js";

export const BUILD_USAGE = "cave build [--root DIR] [--json]";

/** `cave build`: exit 0 when the lock and build folder were written, 1 on errors (nothing written). */
export async function buildCommand(args: readonly string[], io: CliIO): Promise<number> {
  let values: { root?: string; json?: boolean };
  try {
    ({ values } = parseArgs({ args: [...args], options: { root: { type: "string" }, json: { type: "boolean" } }, strict: true, allowPositionals: false }));
  } catch (thrown) {
    return usageError(io, thrown, BUILD_USAGE);
  }
  const root = resolve(io.cwd, values.root ?? ".");
  const result = await build({ root });
  if (values.json) {
    io.stdout(`${JSON.stringify({ ok: result.ok, diagnostics: result.diagnostics, tools: result.lock ? Object.keys(result.lock.tools).length : 0, integrity: result.lock?.integrity ?? null }, null, 2)}\n`);
    return result.ok ? 0 : 1;
  }
  for (const d of result.diagnostics) io.stderr(renderDiagnostic(d, root, io));
  if (!result.ok) {
    io.stderr(`cave build failed: ${summarise(result.diagnostics)}; nothing was written.\n`);
    return 1;
  }
  const count = Object.keys(result.lock!.tools).length;
  io.stdout(`cave build: locked ${count} tool${count === 1 ? "" : "s"} in ${result.config!.lock} (${result.lock!.integrity.slice(0, 19)}…), ${result.files.size} files in ${result.config!.outDir}/\n`);
  return 0;
}
