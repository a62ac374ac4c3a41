// The warm-up project of scripts/warm-runtime.mjs: a tool of the common shape (a closed object of bounded strings,
// a pattern, numbers, an enum, a nested object and an array of objects), so the calls it makes run the runtime's
// usual first-call path: lock, staging, validator module, canonical walk, pipeline, receipt.
import { schema, tool } from "cave";

export const priceOrder = tool({
  name: "price_order",
  description: "Price an order.",
  input: schema.object({
    name: schema.string({ minLength: 1, maxLength: 64 }),
    code: schema.string({ maxLength: 32, pattern: "^[A-Z]{3}-[0-9]{4}$" }),
    quantity: schema.integer({ minimum: 1, maximum: 1000 }),
    price: schema.number(),
    urgent: schema.boolean(),
    note: schema.optional(schema.string({ maxLength: 500 })),
    priority: schema.union([schema.literal("low"), schema.literal("normal"), schema.literal("high")]),
    address: schema.object({ street: schema.string({ maxLength: 100 }), city: schema.string({ maxLength: 60 }) }),
    items: schema.array(
      schema.object({ id: schema.string({ maxLength: 40 }), weight: schema.number({ minimum: 0 }) }),
      {
        maxItems: 50,
      },
    ),
  }),
  output: schema.object({ ok: schema.boolean(), total: schema.number() }),
  effect: "read",
  sandbox: "none",
  execute({ quantity, price }) {
    return { ok: true, total: quantity * price };
  },
});
