import type { CaveLock } from "../src/contract/lock.js";
import { dictionary } from "../src/contract/dictionary.js";
import type { AnalyseResult, EvaluateResult, FileContent, StageResult, ValidatorsResult } from "./types.js";
import type { Location } from "./diagnostics.js";
import { sha256 } from "../src/contract/hash.js";
import { transformFiles } from "./results/index.js";

/** Every transparent (TypeBox) schema that needs a precompiled validator, with who owns it for messages. */
export function schemasToPrecompile(
  evaluated: EvaluateResult,
  analysed?: AnalyseResult,
): Array<{ jsonSchema: Record<string, unknown>; owner: string; at: Location }> {
  const out: Array<{ jsonSchema: Record<string, unknown>; owner: string; at: Location }> = [];
  const where = new Map(
    (analysed?.tools ?? []).map((tool) => [tool.name, { file: tool.file, line: tool.line, column: tool.column }]),
  );
  for (const tool of evaluated.tools) {
    for (const side of ["input", "output"] as const) {
      const schema = tool[side];
      if (schema?.kind === "typebox")
        out.push({
          jsonSchema: schema.jsonSchema,
          owner: `tool "${tool.name}" ${side}`,
          at: where.get(tool.name) ?? { file: tool.module },
        });
    }
  }
  // Stable order whatever order tools were evaluated in; identical schemas collapse later by hash.
  return out.sort((a, b) => (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
}

/** The build folder's content: staged bundles, precompiled validators and the transforms the lock pins, by path relative to the root. */
export function buildFolderFiles(
  staged: StageResult,
  validated: ValidatorsResult,
  lock: CaveLock,
): Map<string, FileContent> {
  const entries: Array<[string, FileContent]> = [...transformFiles(lock)];
  // Only bundles the lock pins: a module that defines agents but no tool is staged for evaluation, but its
  // bundle would be unreviewed code in the build folder (cave verify refuses files the lock does not pin).
  const pinned = new Set(Object.values(lock.tools).map((tool) => tool.source.bundle));
  for (const module of staged.modules.values())
    if (pinned.has(module.bundlePath)) entries.push([module.bundlePath, module.code]);
  for (const validator of validated.validators.values()) entries.push([validator.path, validator.code]);
  // The SDK module every bundle imports, pinned once in the lock's sdk entry.
  const sdk = staged.sdkModule;
  if (sdk !== undefined && lock.sdk?.module?.path === sdk.path) entries.push([sdk.path, sdk.code]);
  // The assets of locked tools, once each.
  const assets = new Set(Object.values(lock.tools).flatMap((tool) => tool.source.assets.map((asset) => asset.path)));
  for (const [path, asset] of staged.assets ?? []) if (assets.has(path)) entries.push([path, asset.content]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(entries);
}

/**
 * sha256 of each build-folder file (for emit, which keeps unchanged files, and the build cache's record). Bundles and
 * validators were hashed when they were made (their sha256 is in the lock): those are taken when the text is that very
 * module's, the rest are hashed.
 */
export function buildFolderHashes(
  files: ReadonlyMap<string, FileContent>,
  staged: StageResult,
  validated: ValidatorsResult,
): Record<string, string> {
  const known = new Map<string, { code: FileContent; sha256: string }>();
  for (const module of staged.modules.values()) known.set(module.bundlePath, module);
  for (const validator of validated.validators.values()) known.set(validator.path, validator);
  if (staged.sdkModule !== undefined) known.set(staged.sdkModule.path, staged.sdkModule);
  for (const [path, asset] of staged.assets ?? []) known.set(path, { code: asset.content, sha256: asset.sha256 });
  const out: Record<string, string> = dictionary();
  for (const [path, text] of files) {
    const made = known.get(path);
    out[path] = made !== undefined && made.code === text ? made.sha256 : sha256(text);
  }
  return out;
}

/** The bundles of these modules (those that define tools: the lock pins them), with their hashes, for beginEmit. */
export function stagedBundles(
  staged: StageResult,
  modules: Iterable<string>,
): { files: Map<string, string>; hashes: Record<string, string> } {
  const files = new Map<string, string>();
  const hashes: Record<string, string> = dictionary();
  for (const name of modules) {
    const module = staged.modules.get(name);
    if (!module) continue;
    files.set(module.bundlePath, module.code);
    hashes[module.bundlePath] = module.sha256;
  }
  if (staged.sdkModule !== undefined && files.size > 0) {
    files.set(staged.sdkModule.path, staged.sdkModule.code);
    hashes[staged.sdkModule.path] = staged.sdkModule.sha256;
  }
  return { files, hashes };
}

/** The validator modules, with their hashes, for beginEmit. */
export function validatorModules(validated: ValidatorsResult): {
  files: Map<string, string>;
  hashes: Record<string, string>;
} {
  const files = new Map<string, string>();
  const hashes: Record<string, string> = dictionary();
  for (const validator of validated.validators.values()) {
    files.set(validator.path, validator.code);
    hashes[validator.path] = validator.sha256;
  }
  return { files, hashes };
}
