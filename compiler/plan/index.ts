import { scopeFields } from "./scope-fields.js";
import { isRetryable, isSpeculable } from "../../src/contract/effects.js";
import { LOCKFILE_VERSION, type CaveLock, type LockedAgent, type LockedTool } from "../../src/contract/lock.js";
import { sealLock } from "../../src/contract/lock-seal.js";
import { osLayerTools } from "../../runtime/sandbox/os-only.js";
import type { AnalyseResult, CaveConfig, EvaluateResult, PassResult, StageResult, ValidatorsResult } from "../types.js";
import { hasErrors } from "../diagnostics.js";
import { lockSchema } from "./schema-lock.js";
import { checkResults, lockResult } from "../results/index.js";
import { sortKeys } from "../emit/render.js";
import { dictionary } from "../../src/contract/dictionary.js";

export interface PlanInput {
  readonly analysed: AnalyseResult;
  readonly staged: StageResult;
  readonly evaluated: EvaluateResult;
  readonly validated: ValidatorsResult;
}

export interface PlanResult extends PassResult {
  /** Null when a result policy cannot be planned (the diagnostics say where). */
  readonly lock: CaveLock | null;
}

/**
 * Turns the evaluated, staged and validated facts into the lock: every decision the runtime will follow, made here.
 * A tool's result policy that cannot be planned is a diagnostic at its definition, and then there is no lock.
 */
export function plan(input: PlanInput, ctx: { readonly config: CaveConfig }): PlanResult {
  const diagnostics = checkResults(input.evaluated, input.analysed, ctx.config.outDir);
  if (hasErrors(diagnostics)) return { lock: null, diagnostics };
  return { lock: lockOf(ctx.config, input.evaluated, input.staged, input.validated), diagnostics };
}

function lockOf(
  config: CaveConfig,
  evaluated: EvaluateResult,
  staged: StageResult,
  validated: ValidatorsResult,
): CaveLock {
  const tools: Record<string, LockedTool> = dictionary();
  for (const tool of [...evaluated.tools].sort((a, b) => compare(a.name, b.name))) {
    const source = staged.modules.get(tool.module);
    if (!source) throw new Error(`internal: module ${tool.module} was evaluated but not staged`);
    tools[tool.name] = {
      module: tool.module,
      export: tool.exportName,
      description: tool.description,
      effect: tool.effect,
      speculable: isSpeculable(tool.effect),
      retryable: isRetryable(tool.effect),
      timeoutMs: tool.timeoutMs,
      allowRepeat: tool.allowRepeat,
      sandbox: {
        mode: tool.sandbox.mode,
        network: false,
        env: [...tool.sandbox.env].sort(),
        ...scopeFields(tool.sandbox.egress ?? [], tool.sandbox.secrets ?? {}),
        fs: tool.sandbox.fs ?? null,
        addons: tool.sandbox.addons === true,
      },
      nestedTools: [...tool.nestedTools].sort(),
      source: {
        bundle: source.bundlePath,
        sha256: source.sha256,
        files: source.files,
        assets: source.assets ?? [],
        externals: source.externals ?? [],
      },
      input: lockSchema(tool.input, tool.schemaSemanticsSHA256, validated.validators),
      output: lockSchema(tool.output, tool.schemaSemanticsSHA256, validated.validators),
      result: lockResult(tool, config.outDir),
    };
  }
  const agents: Record<string, LockedAgent> = dictionary();
  for (const agent of [...evaluated.agents].sort((a, b) => compare(a.name, b.name))) {
    agents[agent.name] = {
      module: agent.module,
      export: agent.exportName,
      description: agent.description,
      tools: [...agent.tools].sort(),
    };
  }
  // Keys sorted once here: canonical JSON of sorted plain data is JSON.stringify's own output (hash.ts's fast path),
  // where the general RFC 8785 serialiser took most of planning a 1,000-tool lock; and a lock whose keys are sorted
  // is rendered as it is (renderLock) instead of copied again.
  // Only the external packages locked tools import (a module staged for its agents alone pins nothing).
  const unsealed = sortKeys({
    lockfileVersion: LOCKFILE_VERSION,
    buildDir: config.outDir,
    sdk: staged.sdk,
    agents,
    tools,
    externals: lockedExternals(tools, staged),
    osLayerTools: osLayerTools(tools),
  }) as Omit<CaveLock, "integrity" | "toolHashes">;
  return sealLock(unsealed);
}

function lockedExternals(tools: Readonly<Record<string, LockedTool>>, staged: StageResult): CaveLock["externals"] {
  const used = new Set(Object.values(tools).flatMap((tool) => tool.source.externals));
  if (used.size === 0 || staged.externals === undefined) return {};
  return Object.fromEntries([...used].sort(compare).map((path) => [path, staged.externals![path]!]));
}

/** Code-unit order, the same order canonical JSON uses, independent of locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
