import { artifact, schema, tool } from "cave";

/** A write that finishes at once with a result large enough that its plan stores it (exact_ccr). */
export const recordOrder = tool({
  name: "record_order",
  description: "Record an order and return its lines.",
  input: schema.object({ lines: schema.integer({ minimum: 1, maximum: 10000 }) }),
  effect: "write",
  sandbox: "none",
  timeout: 300,
  result: artifact({ strategy: "exact_ccr", maxInlineTokens: 64 }),
  execute: ({ lines }) => Array.from({ length: lines }, (_, i) => ({ line: i, sku: `sku-${i}`, note: "recorded" })),
});
