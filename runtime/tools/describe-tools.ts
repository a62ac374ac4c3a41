import type { Effect } from "../../src/contract/effects.js";
import type { ResultStrategy } from "../../src/contract/lock.js";
import type { RuntimeLock } from "../lock/read-lock.js";
import { NO_INPUT_SCHEMA } from "./declarations.js";
import { reservedToolFor } from "../results/reserved-call.js";
import { reservedToolsFor } from "../results/reserved.js";

/**
 * What an adapter (an MCP server, AI SDK or Agents SDK tools) needs to know of one callable tool, so
 * that no adapter reads the lock itself. Schemas are fresh copies: a caller may change them.
 */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  /** The locked draft-07 input schema (no `$schema` key), or NO_INPUT_SCHEMA for a tool without one: call it with `{}`. */
  readonly inputSchema: Record<string, unknown>;
  /** The locked draft-07 output schema, or null when the tool has none (schema-less, or opaque without a JSON Schema). */
  readonly outputSchema: Record<string, unknown> | null;
  readonly effect: Effect;
  /** The locked timeout; the runtime enforces it (an adapter must not add a shorter one). */
  readonly timeoutMs: number;
  readonly allowRepeat: boolean;
  /**
   * The locked result plan's strategy. Only for "inline" is a successful call's content the validated
   * result itself (so only then does outputSchema describe the content); "page", "compress" and
   * "exact_ccr" may put a page, a transform's text or a short view with a reference there instead.
   */
  readonly result: ResultStrategy;
  /** cave_page / cave_recover: a framework tool, present because a locked plan refers the model to it. */
  readonly reserved: boolean;
  /** sha256 of the canonical JSON of the tool's lock entry (what a client pins); null for a reserved tool, which has no entry. */
  readonly sha256: string | null;
}

/** Every callable tool, locked ones sorted by name, then the reserved tools the lock's plans need (the order of toolDeclarations()). */
export function describeTools(lock: RuntimeLock): ToolInfo[] {
  const out: ToolInfo[] = [];
  for (const name of lock.toolNames) {
    const tool = lock.tool(name)!;
    out.push({
      name,
      description: tool.description,
      inputSchema: copy(tool.input?.jsonSchema ?? NO_INPUT_SCHEMA),
      outputSchema: tool.output?.jsonSchema == null ? null : copy(tool.output.jsonSchema),
      effect: tool.effect,
      timeoutMs: tool.timeoutMs,
      allowRepeat: tool.allowRepeat,
      result: tool.result.plan.strategy,
      reserved: false,
      sha256: lock.toolHash(name)!,
    });
  }
  for (const reserved of reservedToolsFor(lock)) {
    const tool = reservedToolFor(lock, reserved.name)!;
    out.push({
      name: reserved.name,
      description: reserved.description,
      inputSchema: copy(reserved.inputSchema),
      outputSchema: null,
      effect: reserved.effect,
      timeoutMs: tool.timeoutMs,
      allowRepeat: tool.allowRepeat,
      result: "inline",
      reserved: true,
      sha256: null,
    });
  }
  return out;
}

function copy(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
