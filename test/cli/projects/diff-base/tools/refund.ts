import { tool, schema } from "cave";
import { cancelOrder, lookupOrder } from "./orders.js";

export const refundOrder = tool({
  name: "refund_order",
  description: "Cancel an order and refund it.",
  input: schema.object({ id: schema.string({ maxLength: 20 }) }),
  effect: "write",
  nestedTools: [lookupOrder, cancelOrder],
  async execute({ id }, context) {
    await context.call("cancel_order", { id });
    return { id, refunded: true };
  },
});
