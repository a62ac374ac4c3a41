import { artifact, schema, tool, type Static } from "cave";
import { findOrder, orderTotalCents } from "../data/orders.js";
import {
  REFUND_POLICIES,
  SETTLEMENT_DELAY_MS,
  findRefund,
  nextRefundId,
  refundStatus,
  refundsByKey,
  refundsForOrder,
  type Refund,
} from "../data/refunds.js";
import { callNested } from "../lib/call-nested.js";
import { getCustomer, sendCustomerEmail } from "./customers.js";
import { getOrder, OrderDetail } from "./orders.js";
import {
  Cents,
  CustomerProfile,
  OrderId,
  RefundId,
  RefundReason,
  RefundRecord,
  Region,
  Timestamp,
} from "./shared-schemas.js";

const RefundPolicy = schema.object({
  region: Region,
  refundWindowDays: schema.integer({ minimum: 0, maximum: 365 }),
  returnRequiredAboveCents: Cents,
});

function toRecord(refund: Refund, now = Date.now()): Static<typeof RefundRecord> {
  const { refundId, orderId, amountCents, currency, reason, requestedAt } = refund;
  return { refundId, orderId, amountCents, currency, reason, status: refundStatus(refund, now), requestedAt };
}

export const getRefundPolicy = tool({
  name: "get_refund_policy",
  description:
    "Read the refund policy of a region (EU, UK or US): how many days after delivery a refund may be asked for, and above which amount the item must be returned first. Without a region, the desk's own region.",
  input: schema.object({ region: schema.optional(Region) }),
  output: RefundPolicy,
  effect: "read",
  result: "inline",
  // The desk's default region and log settings come from the environment; nothing secret is needed.
  sandboxProfile: { env: ["SUPPORT_DESK_REGION", "LOG_LEVEL", "TZ"] },
  execute({ region }) {
    const fallback = process.env.SUPPORT_DESK_REGION;
    const chosen = region ?? (fallback === "UK" || fallback === "US" ? fallback : "EU");
    return { region: chosen, ...REFUND_POLICIES[chosen] };
  },
});

export const listOrderRefunds = tool({
  name: "list_order_refunds",
  description:
    "List the refunds already issued for an order, with their status, so that an order is never refunded twice.",
  input: schema.object({ orderId: OrderId }),
  output: schema.object({
    orderId: OrderId,
    refundedCents: Cents,
    refunds: schema.array(RefundRecord, { maxItems: 50 }),
  }),
  effect: "read",
  execute({ orderId }) {
    findOrder(orderId);
    const refunds = refundsForOrder(orderId).map((refund) => toRecord(refund));
    return { orderId, refundedCents: refunds.reduce((sum, refund) => sum + refund.amountCents, 0), refunds };
  },
});

export const issueRefund = tool({
  name: "issue_refund",
  description:
    "Refund all or part of an order to the original payment method. Pass an idempotency key unique to this refund decision: repeating the call with the same key returns the same refund instead of paying twice.",
  input: schema.object({
    orderId: OrderId,
    amountCents: schema.integer({ minimum: 1, maximum: 10_000_000 }),
    reason: RefundReason,
    idempotencyKey: schema.string({ minLength: 8, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" }),
  }),
  output: RefundRecord,
  // Safe to retry with the same arguments thanks to the idempotency key.
  effect: "idempotent",
  timeout: 20_000,
  execute({ orderId, amountCents, reason, idempotencyKey }) {
    const existing = refundsByKey.get(idempotencyKey);
    if (existing) {
      if (existing.orderId !== orderId || existing.amountCents !== amountCents) {
        throw new Error(
          `Idempotency key ${idempotencyKey} was used for a different refund (${existing.refundId}); use a new key for a new refund.`,
        );
      }
      return toRecord(existing);
    }
    const order = findOrder(orderId);
    const refundable =
      orderTotalCents(order) - refundsForOrder(orderId).reduce((sum, refund) => sum + refund.amountCents, 0);
    if (amountCents > refundable) {
      throw new Error(`Order ${orderId} has ${refundable} cents left to refund; ${amountCents} is too much.`);
    }
    const now = Date.now();
    const refund: Refund = {
      refundId: nextRefundId(),
      orderId,
      amountCents,
      currency: order.currency,
      reason,
      requestedAt: new Date(now).toISOString(),
      settlesAt: new Date(now + SETTLEMENT_DELAY_MS).toISOString(),
    };
    refundsByKey.set(idempotencyKey, refund);
    return toRecord(refund, now);
  },
});

export const checkRefundStatus = tool({
  name: "check_refund_status",
  description:
    "Check whether a refund has settled with the payment processor. Call it again with the same refund id to poll until the status is settled.",
  input: schema.object({ refundId: RefundId }),
  output: schema.object({
    refundId: RefundId,
    status: schema.union([schema.literal("pending"), schema.literal("settled")]),
    settledAt: schema.optional(Timestamp),
  }),
  effect: "read",
  // A polling tool: identical repeated calls are its job, so the repeat guard must let them through.
  allowRepeat: true,
  timeout: 2_000,
  execute({ refundId }) {
    const refund = findRefund(refundId);
    return refundStatus(refund) === "settled"
      ? { refundId, status: "settled" as const, settledAt: refund.settlesAt }
      : { refundId, status: "pending" as const };
  },
});

/**
 * A read composite: it gathers what a refund decision needs in one call. Every child is `read`, as a read
 * composite requires; issuing the refund stays a separate, deliberate call.
 */
export const prepareRefundCase = tool({
  name: "prepare_refund_case",
  description:
    "Gather everything needed to decide on a refund for one order: the order, the customer, the region's refund policy, refunds already issued, how much is still refundable and whether the refund window is still open.",
  input: schema.object({ orderId: OrderId }),
  output: schema.object({
    order: OrderDetail,
    customer: CustomerProfile,
    policy: RefundPolicy,
    refundedCents: Cents,
    refundableCents: Cents,
    windowClosesAt: schema.union([Timestamp, schema.null()], {
      description: "Null while the order has not been delivered.",
    }),
    withinWindow: schema.boolean(),
    returnRequired: schema.boolean({ description: "Whether the full refundable amount requires the item back first." }),
  }),
  effect: "read",
  nestedTools: [getOrder, getCustomer, getRefundPolicy, listOrderRefunds],
  // Inline while small; past 800 tokens, paged with the exact result stored for recovery.
  result: artifact({ maxInlineTokens: 800, strategy: "page", recovery: "exact_ccr" }),
  timeout: 15_000,
  async execute({ orderId }, context) {
    const order = await callNested<Static<typeof OrderDetail>>(context, "get_order", { orderId });
    const [customer, history] = await Promise.all([
      callNested<Static<typeof CustomerProfile>>(context, "get_customer", { customerId: order.customerId }),
      callNested<{ refundedCents: number }>(context, "list_order_refunds", { orderId }),
    ]);
    const policy = await callNested<Static<typeof RefundPolicy>>(context, "get_refund_policy", {
      region: customer.region,
    });
    const refundableCents = order.status === "cancelled" ? 0 : Math.max(0, order.totalCents - history.refundedCents);
    const windowCloses =
      order.deliveredAt === undefined ? null : Date.parse(order.deliveredAt) + policy.refundWindowDays * 86_400_000;
    return {
      order,
      customer,
      policy,
      refundedCents: history.refundedCents,
      refundableCents,
      windowClosesAt: windowCloses === null ? null : new Date(windowCloses).toISOString(),
      // Not yet delivered counts as within the window: the customer can still refuse the parcel.
      withinWindow: windowCloses === null || Date.now() <= windowCloses,
      returnRequired: refundableCents > policy.returnRequiredAboveCents,
    };
  },
});

/**
 * An effectful composite: refund, then tell the customer. Its effect is `external` because its strongest
 * child (the email) leaves the process.
 */
export const refundAndNotifyCustomer = tool({
  name: "refund_and_notify_customer",
  description:
    "Issue a refund and email the customer a confirmation with the amount and refund id, in one step. Use it once the refund has been agreed with the customer.",
  input: schema.object({
    orderId: OrderId,
    amountCents: schema.integer({ minimum: 1, maximum: 10_000_000 }),
    reason: RefundReason,
    idempotencyKey: schema.string({ minLength: 8, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" }),
  }),
  output: schema.object({ refund: RefundRecord, emailMessageId: schema.string() }),
  effect: "external",
  nestedTools: [getOrder, issueRefund, sendCustomerEmail],
  timeout: 40_000,
  async execute(input, context) {
    const order = await callNested<Static<typeof OrderDetail>>(context, "get_order", { orderId: input.orderId });
    const refund = await callNested<Static<typeof RefundRecord>>(context, "issue_refund", input);
    const amount = `${(refund.amountCents / 100).toFixed(2)} ${refund.currency}`;
    const email = await callNested<{ messageId: string }>(context, "send_customer_email", {
      customerId: order.customerId,
      subject: `Your refund for order ${order.orderId}`,
      body: `We have refunded ${amount} for order ${order.orderId} (refund ${refund.refundId}). It goes back to your original payment method and usually shows within 3 to 5 business days.`,
    });
    return { refund, emailMessageId: email.messageId };
  },
});
