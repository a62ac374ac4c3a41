import { schema, tool } from "cave";
import { findCustomer } from "../data/customers.js";
import { findOrder, orders, orderTotalCents } from "../data/orders.js";
import {
  Address,
  Cents,
  Currency,
  CustomerId,
  OrderId,
  OrderStatus,
  OrderSummary,
  Timestamp,
  Url,
} from "./shared-schemas.js";

/** A full order: bounded (at most 50 items), so the planner can size it from the schema. */
export const OrderDetail = schema.object({
  orderId: OrderId,
  customerId: CustomerId,
  status: OrderStatus,
  placedAt: Timestamp,
  deliveredAt: schema.optional(Timestamp),
  currency: Currency,
  totalCents: Cents,
  items: schema.array(
    schema.object({
      sku: schema.string({ maxLength: 32 }),
      name: schema.string({ maxLength: 120 }),
      quantity: schema.integer({ minimum: 1, maximum: 99 }),
      unitPriceCents: Cents,
    }),
    { minItems: 1, maxItems: 50 },
  ),
  shippingAddress: Address,
  trackingUrl: schema.optional(Url),
});

export const getOrder = tool({
  name: "get_order",
  description: "Look up one order by id: status, items, total, shipping address, delivery date and tracking link.",
  input: schema.object({ orderId: OrderId }),
  output: OrderDetail,
  effect: "read",
  result: "auto",
  timeout: 5_000,
  execute({ orderId }) {
    const order = findOrder(orderId);
    return {
      orderId: order.orderId,
      customerId: order.customerId,
      status: order.status,
      placedAt: order.placedAt,
      // Absent facts are left out rather than sent as undefined: the result must be plain JSON.
      ...(order.deliveredAt === undefined ? {} : { deliveredAt: order.deliveredAt }),
      currency: order.currency,
      totalCents: orderTotalCents(order),
      items: order.items.map((item) => ({ ...item })),
      shippingAddress: structuredClone(order.shippingAddress),
      ...(order.trackingUrl === undefined ? {} : { trackingUrl: order.trackingUrl }),
    };
  },
});

/** Long order histories are cut into pages rather than flooding the context. */
const ORDER_HISTORY_TIMEOUT_MS = 10_000;

export const listCustomerOrders = tool({
  name: "list_customer_orders",
  description:
    "List a customer's orders, newest first, optionally only those with one status. Use it when the customer does not know the order id.",
  input: schema.object({
    customerId: CustomerId,
    status: schema.optional(OrderStatus),
    limit: schema.optional(schema.integer({ minimum: 1, maximum: 100, default: 20 })),
  }),
  output: schema.object({ customerId: CustomerId, orders: schema.array(OrderSummary) }),
  effect: "read",
  result: "page",
  timeout: ORDER_HISTORY_TIMEOUT_MS,
  execute({ customerId, status, limit = 20 }) {
    findCustomer(customerId);
    const matching = [...orders.values()]
      .filter((order) => order.customerId === customerId && (status === undefined || order.status === status))
      .sort((a, b) => b.placedAt.localeCompare(a.placedAt))
      .slice(0, limit)
      .map((order) => ({
        orderId: order.orderId,
        status: order.status,
        placedAt: order.placedAt,
        currency: order.currency,
        totalCents: orderTotalCents(order),
        itemCount: order.items.reduce((sum, item) => sum + item.quantity, 0),
      }));
    return { customerId, orders: matching };
  },
});

export const cancelOrder = tool({
  name: "cancel_order",
  description:
    "Cancel an order that is still processing (not yet shipped). The payment is refunded in full automatically. Ask the customer to confirm first.",
  input: schema.object({
    orderId: OrderId,
    reason: schema.string({ minLength: 3, maxLength: 500, description: "Why the customer cancels, in their words." }),
  }),
  output: schema.object({
    orderId: OrderId,
    status: schema.literal("cancelled"),
    cancelledAt: Timestamp,
    refundedCents: Cents,
    currency: Currency,
  }),
  effect: "write",
  execute({ orderId, reason }) {
    const order = findOrder(orderId);
    if (order.status !== "processing") {
      throw new Error(
        `Order ${orderId} is ${order.status}; only processing orders can be cancelled. Offer a return once it arrives instead.`,
      );
    }
    order.status = "cancelled";
    order.cancelledAt = new Date().toISOString();
    order.cancellationReason = reason;
    return {
      orderId,
      status: "cancelled" as const,
      cancelledAt: order.cancelledAt,
      refundedCents: orderTotalCents(order),
      currency: order.currency,
    };
  },
});
