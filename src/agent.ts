import { AGENT_BRAND } from "./contract/brands.js";
import { CaveError } from "./errors.js";
import { checkAgentOptions, definitionFacts, isPlainObject } from "./rules.js";
import type { AgentDefinition, AgentOptions, AnyToolDefinition } from "./types.js";

/** Groups tools for one agent; two tools with the same name fail here, naming both positions. */
export function agent<const T extends readonly AnyToolDefinition[]>(options: AgentOptions<T>): AgentDefinition<T> {
  if (!isPlainObject(options)) {
    throw new CaveError("agent()", [
      {
        code: "CAVE1024",
        field: "options",
        message: "agent() takes one options object",
        hint: "Call agent({ name, tools: [...] }).",
      },
    ]);
  }
  const raw = options as unknown as Record<string, unknown>;
  const subject = typeof raw.name === "string" ? `agent ${JSON.stringify(raw.name)}` : "agent()";
  const violations = checkAgentOptions(raw, (item) => definitionFacts(item)?.name);
  if (violations.length > 0) throw new CaveError(subject, violations);
  return Object.freeze({
    [AGENT_BRAND]: true as const,
    name: options.name,
    description: options.description,
    tools: Object.freeze([...options.tools]) as unknown as T,
  });
}
