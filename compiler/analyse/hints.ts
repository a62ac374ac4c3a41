import type { CaveFunction } from "./model.js";

const WHY = "the lock must know it without running your code.";

const FIELD_HINTS: Readonly<Record<string, string>> = {
  "tool.name": `Write the name as a string literal or a const initialised with one: ${WHY}`,
  "tool.description": `Write the description as a string literal or a const initialised with one: ${WHY}`,
  "tool.effect": `Write the effect as "read", "write", "idempotent" or "external" (or a const initialised with one): ${WHY}`,
  "tool.timeout": `Write the timeout as a literal or a const initialised with one: ${WHY}`,
  "tool.allowRepeat": `Write allowRepeat as true or false (or a const initialised with one): ${WHY}`,
  "tool.sandbox": `Write sandbox as "required" or "none" (or a const initialised with one): ${WHY}`,
  "tool.sandboxProfile": `Write sandboxProfile as an object literal of literals, e.g. { env: ["REGION"] }: ${WHY}`,
  "tool.nestedTools": `List the nested tools as an array of tool consts (imported from their modules if needed), e.g. nestedTools: [lookupOrder]: ${WHY}`,
  "tool.result": `Write the result policy as a string literal (auto, inline, page, compress, exact_ccr) or artifact({...}) with literal options, inline or in a const: ${WHY}`,
  "tool.schemaSemanticsSHA256": `Write the hash as a string literal or a const initialised with one: ${WHY}`,
  "agent.name": `Write the agent name as a string literal or a const initialised with one: ${WHY}`,
  "agent.description": `Write the agent description as a string literal or a const initialised with one: ${WHY}`,
  "agent.tools": `List the agent's tools as an array of tool consts (imported from their modules if needed), e.g. tools: [lookupOrder]: ${WHY}`,
  "artifact.strategy": `Write the strategy as "page", "compress" or "exact_ccr" (or a const initialised with one): ${WHY}`,
  "artifact.maxInlineTokens": `Write maxInlineTokens as a number literal or a const initialised with one: ${WHY}`,
  "artifact.recovery": `Write recovery as "exact_ccr" or "none" (or a const initialised with one): ${WHY}`,
};

/** What to do when a locked field is computed. */
export function computedFieldHint(kind: CaveFunction, field: string): string {
  return FIELD_HINTS[`${kind}.${field}`] ?? `Write ${field} as a literal or a const initialised with one: ${WHY}`;
}
