import type { Currency } from "./orders.js";

/** Refund reasons the payment processor accepts. */
export type RefundReason = "damaged" | "late_delivery" | "wrong_item" | "not_as_described" | "changed_mind";
export type RefundStatus = "pending" | "settled";

export interface Refund {
  refundId: string;
  orderId: string;
  amountCents: number;
  currency: Currency;
  reason: RefundReason;
  requestedAt: string;
  /** When the (simulated) payment processor settles it; status is derived from the clock, so reading it changes nothing. */
  settlesAt: string;
}

/** How long the simulated payment processor takes to settle a refund. */
export const SETTLEMENT_DELAY_MS = 3_000;

/** The ledger, keyed by idempotency key: issuing twice with one key returns the first refund. */
export const refundsByKey = new Map<string, Refund>([
  ["seed-ord-10003-arm", { refundId: "RFD-00001", orderId: "ORD-10003", amountCents: 7900, currency: "USD", reason: "damaged", requestedAt: "2026-02-03T10:00:00Z", settlesAt: "2026-02-03T10:00:03Z" }],
]);

export function refundStatus(refund: Refund, now: number = Date.now()): RefundStatus {
  return Date.parse(refund.settlesAt) <= now ? "settled" : "pending";
}

export function refundsForOrder(orderId: string): Refund[] {
  return [...refundsByKey.values()].filter((refund) => refund.orderId === orderId);
}

export function findRefund(refundId: string): Refund {
  for (const refund of refundsByKey.values()) if (refund.refundId === refundId) return refund;
  throw new Error(`No refund ${refundId}. Check the id (RFD- and five digits).`);
}

export function nextRefundId(): string {
  return `RFD-${String(refundsByKey.size + 1).padStart(5, "0")}`;
}

/** Refund rules per region: the window after delivery and whether the item must come back first. */
export const REFUND_POLICIES = {
  EU: { refundWindowDays: 30, returnRequiredAboveCents: 5000 },
  UK: { refundWindowDays: 30, returnRequiredAboveCents: 5000 },
  US: { refundWindowDays: 14, returnRequiredAboveCents: 10000 },
} as const;
