import { pathToFileURL } from "node:url";
import type { StageResult } from "../../compiler/types.js";
import { PrivateCopy } from "../../runtime/loading/private-copy.js";

/**
 * Imports one staged module as the runtime does: its bundle and the SDK module it imports, written to a private copy
 * at their build-folder paths, the bundle imported by file URL. The copy is removed when the process exits.
 */
export async function importStaged(result: StageResult, module: string): Promise<Record<string, unknown>> {
  const staged = result.modules.get(module);
  if (staged === undefined) throw new Error(`${module} was not staged`);
  const copy = new PrivateCopy();
  if (result.sdkModule !== undefined) await copy.add(result.sdkModule.path, result.sdkModule.code);
  return (await import(pathToFileURL(await copy.add(staged.bundlePath, staged.code)).href)) as Record<string, unknown>;
}
