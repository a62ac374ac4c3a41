import { canonicalJson } from "../../src/contract/hash.js";
import { error, type Diagnostic } from "../diagnostics.js";
import type { AnalyseResult, EvaluatedAgent, EvaluatedTool, StaticAgent, StaticTool } from "../types.js";

const COMPUTED_HINT =
  "The value is computed when the module runs; write it as a literal (or a const holding one) in the call, so that the lock records what actually runs.";
const UNSEEN_HINT =
  'Call tool() or agent() imported from "cave" directly in an `export const` of a module the build includes; definitions made by wrapper functions or in files outside the build cannot be read from the source.';

export const exportKey = (module: string, exportName: string) => `${module}\u0000${exportName}`;
const key = exportKey;
const show = (value: unknown) => (value === undefined ? "undefined" : canonicalJson(value));

function toolFields(
  tool: StaticTool | EvaluatedTool,
  declared: { input: boolean; output: boolean },
): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    effect: tool.effect,
    timeout: tool.timeoutMs,
    allowRepeat: tool.allowRepeat,
    sandbox: tool.sandbox.mode,
    "sandboxProfile.env": tool.sandbox.env,
    "sandboxProfile.network": tool.sandbox.network,
    "sandboxProfile.egress": tool.sandbox.egress ?? [],
    "sandboxProfile.secrets": tool.sandbox.secrets ?? {},
    "sandboxProfile.fs": tool.sandbox.fs ?? null,
    "sandboxProfile.addons": tool.sandbox.addons === true,
    nestedTools: tool.nestedTools,
    result: tool.result,
    schemaSemanticsSHA256: tool.schemaSemanticsSHA256,
    input: declared.input ? "declared" : "absent",
    output: declared.output ? "declared" : "absent",
  };
}

function differences(
  subject: string,
  evaluated: Record<string, unknown>,
  analysed: Record<string, unknown>,
  at: StaticTool | StaticAgent,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const field of Object.keys(analysed)) {
    const ran = show(evaluated[field]);
    const read = show(analysed[field]);
    if (ran !== read) {
      out.push(
        error(
          "CAVE5005",
          `${subject}: ${field} is ${ran} when the module runs, but the source says ${read}`,
          COMPUTED_HINT,
          { file: at.file, line: at.line, column: at.column },
        ),
      );
    }
  }
  return out;
}

export interface CrossChecked {
  /** Evaluated definitions that analysis found at the same module and export. */
  readonly tools: readonly EvaluatedTool[];
  readonly agents: readonly EvaluatedAgent[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Compares every evaluated definition with the one analysis read at the same module and export. Any
 * difference means a lock-relevant value was computed. An export analysis did not see is refused, unless
 * it is the same definition as one it did see (a module re-exporting another module's tool).
 */
export function crossCheck(
  tools: readonly EvaluatedTool[],
  agents: readonly EvaluatedAgent[],
  analysed: AnalyseResult,
  seen: { readonly imported: ReadonlySet<string>; readonly unreadable: ReadonlySet<string> },
): CrossChecked {
  const diagnostics: Diagnostic[] = [];
  const staticTools = new Map(analysed.tools.map((tool) => [key(tool.module, tool.exportName), tool]));
  const staticAgents = new Map(analysed.agents.map((agent) => [key(agent.module, agent.exportName), agent]));
  const matchedTools: EvaluatedTool[] = [];
  const matchedAgents: EvaluatedAgent[] = [];
  const unmatchedTools: EvaluatedTool[] = [];
  const unmatchedAgents: EvaluatedAgent[] = [];

  for (const tool of tools) {
    const found = staticTools.get(key(tool.module, tool.exportName));
    if (!found) {
      unmatchedTools.push(tool);
      continue;
    }
    staticTools.delete(key(tool.module, tool.exportName));
    matchedTools.push(tool);
    const ran = toolFields(tool, { input: tool.input !== null, output: tool.output !== null });
    const read = toolFields(found, { input: found.declaresInput, output: found.declaresOutput });
    diagnostics.push(...differences(`tool "${found.name}" (export ${tool.exportName})`, ran, read, found));
  }
  for (const agent of agents) {
    const found = staticAgents.get(key(agent.module, agent.exportName));
    if (!found) {
      unmatchedAgents.push(agent);
      continue;
    }
    staticAgents.delete(key(agent.module, agent.exportName));
    matchedAgents.push(agent);
    const fields = (a: StaticAgent | EvaluatedAgent) => ({ name: a.name, description: a.description, tools: a.tools });
    diagnostics.push(
      ...differences(`agent "${found.name}" (export ${agent.exportName})`, fields(agent), fields(found), found),
    );
  }

  const sameTool = (a: EvaluatedTool, b: EvaluatedTool) =>
    canonicalJson({ ...a, module: "", exportName: "" }) === canonicalJson({ ...b, module: "", exportName: "" });
  const sameAgent = (a: EvaluatedAgent, b: EvaluatedAgent) =>
    canonicalJson({ ...a, module: "", exportName: "" }) === canonicalJson({ ...b, module: "", exportName: "" });
  for (const tool of unmatchedTools) {
    if (matchedTools.some((other) => sameTool(tool, other))) continue;
    diagnostics.push(
      error(
        "CAVE5006",
        `${tool.module} exports tool "${tool.name}" as ${tool.exportName}, but no tool() call for it was found in the source`,
        UNSEEN_HINT,
        { file: tool.module },
      ),
    );
  }
  for (const agent of unmatchedAgents) {
    if (matchedAgents.some((other) => sameAgent(agent, other))) continue;
    diagnostics.push(
      error(
        "CAVE5006",
        `${agent.module} exports agent "${agent.name}" as ${agent.exportName}, but no agent() call for it was found in the source`,
        UNSEEN_HINT,
        { file: agent.module },
      ),
    );
  }

  // What the source defines must be what the module exports (only for modules that were imported).
  for (const found of [...staticTools.values(), ...staticAgents.values()]) {
    if (!seen.imported.has(found.module) || seen.unreadable.has(key(found.module, found.exportName))) continue;
    const kind = "effect" in found ? "tool" : "agent";
    diagnostics.push(
      error(
        "CAVE5005",
        `${kind} "${found.name}": export ${found.exportName} is not a ${kind} definition when the module runs`,
        COMPUTED_HINT,
        { file: found.file, line: found.line, column: found.column },
      ),
    );
  }
  return { tools: matchedTools, agents: matchedAgents, diagnostics };
}
