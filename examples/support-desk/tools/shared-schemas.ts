import { schema } from "cave";

/**
 * Schema constants shared by several tool modules, so that an order id or an amount means the same thing
 * to every tool (and to the model) and is validated the same way everywhere.
 */
export const OrderId = schema.string({ pattern: "^ORD-[0-9]{5}$", description: "Order id, e.g. ORD-10001." });
export const CustomerId = schema.string({ pattern: "^CUS-[0-9]{4}$", description: "Customer id, e.g. CUS-0001." });
export const TicketId = schema.string({ pattern: "^TCK-[0-9]{4}$", description: "Support ticket id, e.g. TCK-2001." });
export const RefundId = schema.string({ pattern: "^RFD-[0-9]{5}$", description: "Refund id, e.g. RFD-00001." });

export const Email = schema.string({ format: "email", maxLength: 254, description: "An email address." });
export const Timestamp = schema.string({ format: "date-time", description: "An RFC 3339 date-time in UTC." });
export const Url = schema.string({ format: "uri", maxLength: 2048 });

export const Currency = schema.union([schema.literal("EUR"), schema.literal("GBP"), schema.literal("USD")], {
  description: "ISO 4217 currency code.",
});
/** Integer cents: amounts are never floating point. */
export const Cents = schema.integer({
  minimum: 0,
  maximum: 10_000_000,
  description: "An amount in cents (1999 is 19.99).",
});
export const Region = schema.union([schema.literal("EU"), schema.literal("UK"), schema.literal("US")]);

export const OrderStatus = schema.union([
  schema.literal("processing"),
  schema.literal("shipped"),
  schema.literal("delivered"),
  schema.literal("cancelled"),
]);

export const Address = schema.object({
  line1: schema.string({ minLength: 1, maxLength: 100 }),
  line2: schema.optional(schema.string({ maxLength: 100 })),
  city: schema.string({ minLength: 1, maxLength: 60 }),
  postalCode: schema.string({ minLength: 2, maxLength: 12 }),
  country: schema.string({ pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2 country code." }),
});

/** One line of an order list, without items: enough to pick the order to look at. */
export const OrderSummary = schema.object({
  orderId: OrderId,
  status: OrderStatus,
  placedAt: Timestamp,
  currency: Currency,
  totalCents: Cents,
  itemCount: schema.integer({ minimum: 1 }),
});

export const CustomerProfile = schema.object({
  customerId: CustomerId,
  name: schema.string({ minLength: 1, maxLength: 120 }),
  email: Email,
  tier: schema.union([schema.literal("standard"), schema.literal("plus"), schema.literal("business")]),
  region: Region,
  createdAt: Timestamp,
});

export const RefundReason = schema.union([
  schema.literal("damaged"),
  schema.literal("late_delivery"),
  schema.literal("wrong_item"),
  schema.literal("not_as_described"),
  schema.literal("changed_mind"),
]);

export const RefundRecord = schema.object({
  refundId: RefundId,
  orderId: OrderId,
  amountCents: Cents,
  currency: Currency,
  reason: RefundReason,
  status: schema.union([schema.literal("pending"), schema.literal("settled")]),
  requestedAt: Timestamp,
});
