import { tool, schema, artifact } from "cave";

const ORDER = schema.object({ id: schema.integer(), customer: schema.string(), total: schema.number(), paid: schema.boolean() });
const orders = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, customer: `Zoë Ångström ${i} 東京`, total: i * 1.25, paid: i % 2 === 0 }));

/** auto on an array of records: inline when small, else pages. */
export const listOrders = tool({
  name: "list_orders",
  description: "Orders; count says how many.",
  input: schema.object({ count: schema.integer({ minimum: 0, maximum: 100000 }) }),
  output: schema.array(ORDER),
  effect: "read",
  sandbox: "none",
  execute: ({ count }) => orders(count),
});

/** auto on long text: head and tail after storing the exact text. */
export const readLog = tool({
  name: "read_log",
  description: "The service log.",
  input: schema.object({ lines: schema.integer({ minimum: 0, maximum: 100000 }) }),
  output: schema.string(),
  effect: "read",
  sandbox: "none",
  execute: ({ lines }) => Array.from({ length: lines }, (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO served request ${i} — ok ✓`).join("\n"),
});

/** compress on flat records: the lossless table. */
export const exportOrders = tool({
  name: "export_orders",
  description: "Orders for export.",
  input: schema.object({ count: schema.integer({ minimum: 0, maximum: 100000 }) }),
  output: schema.array(ORDER),
  effect: "read",
  sandbox: "none",
  result: "compress",
  execute: ({ count }) => orders(count),
});

/** An exact artifact without an output schema. */
export const dump = tool({
  name: "dump",
  description: "A raw dump.",
  input: schema.object({ count: schema.integer({ minimum: 0, maximum: 100000 }) }),
  effect: "read",
  sandbox: "none",
  result: artifact({ strategy: "exact_ccr", maxInlineTokens: 300 }),
  execute: ({ count }) => ({ rows: orders(count), note: "naïve ☃ \u0000 end" }),
});
