import { tool, schema } from "cave";
import { formatOrderId } from "../lib/format.js";

export const lookupOrder = tool({
  name: "lookup_order",
  description: "Read one order by id.",
  input: schema.object({ id: schema.string({ maxLength: 20, pattern: "^[A-Z0-9-]+$" }) }),
  output: schema.object({
    id: schema.string(),
    status: schema.union([schema.literal("open"), schema.literal("shipped")]),
    total: schema.number({ minimum: 0 }),
  }),
  effect: "read",
  async execute({ id }) {
    return { id: formatOrderId(id), status: "open" as const, total: 10 };
  },
});

export const cancelOrder = tool({
  name: "cancel_order",
  description: "Cancel an open order.",
  input: schema.object({ id: schema.string({ maxLength: 20 }), reason: schema.optional(schema.string({ maxLength: 200 })) }),
  effect: "write",
  timeout: 10_000,
  execute({ id }) {
    return { id: formatOrderId(id), cancelled: true };
  },
});
