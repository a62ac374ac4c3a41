/** Orders, with their items and shipping addresses. Amounts are integer cents, so no rounding ever happens. */
export type Currency = "EUR" | "GBP" | "USD";
export type OrderStatus = "processing" | "shipped" | "delivered" | "cancelled";

export interface OrderItem {
  sku: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Address {
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface Order {
  orderId: string;
  customerId: string;
  status: OrderStatus;
  placedAt: string;
  deliveredAt?: string;
  currency: Currency;
  items: OrderItem[];
  shippingAddress: Address;
  trackingUrl?: string;
  cancelledAt?: string;
  cancellationReason?: string;
}

const berlin: Address = { line1: "Torstraße 118", city: "Berlin", postalCode: "10119", country: "DE" };
const austin: Address = { line1: "2207 E 6th St", line2: "Apt 4", city: "Austin", postalCode: "78702", country: "US" };
const leeds: Address = { line1: "14 Park Square East", city: "Leeds", postalCode: "LS1 2NE", country: "GB" };
const lyon: Address = { line1: "8 Rue Mercière", city: "Lyon", postalCode: "69002", country: "FR" };
const hamburg: Address = { line1: "Schanzenstraße 41", city: "Hamburg", postalCode: "20357", country: "DE" };

const SEED: readonly Order[] = [
  { orderId: "ORD-10001", customerId: "CUS-0001", status: "delivered", placedAt: "2026-01-04T10:12:00Z", deliveredAt: "2026-01-08T13:40:00Z", currency: "EUR", items: [{ sku: "KB-TKL-RED", name: "Tenkeyless keyboard, red switches", quantity: 1, unitPriceCents: 8999 }, { sku: "CBL-USBC-2M", name: "USB-C cable, 2 m", quantity: 2, unitPriceCents: 1299 }], shippingAddress: berlin, trackingUrl: "https://track.example-parcel.com/p/JD0149920311" },
  { orderId: "ORD-10002", customerId: "CUS-0001", status: "shipped", placedAt: "2026-02-20T18:03:00Z", currency: "EUR", items: [{ sku: "MS-ERGO-V", name: "Vertical ergonomic mouse", quantity: 1, unitPriceCents: 5499 }], shippingAddress: berlin, trackingUrl: "https://track.example-parcel.com/p/JD0150388127" },
  { orderId: "ORD-10003", customerId: "CUS-0002", status: "delivered", placedAt: "2026-01-28T22:41:00Z", deliveredAt: "2026-02-02T17:05:00Z", currency: "USD", items: [{ sku: "MON-27-4K", name: "27-inch 4K monitor", quantity: 1, unitPriceCents: 38900 }, { sku: "ARM-MON-1", name: "Single monitor arm", quantity: 1, unitPriceCents: 7900 }], shippingAddress: austin, trackingUrl: "https://track.example-freight.com/t/1Z999AA10123456784" },
  { orderId: "ORD-10004", customerId: "CUS-0002", status: "processing", placedAt: "2026-03-01T08:15:00Z", currency: "USD", items: [{ sku: "HS-ANC-BT", name: "Noise-cancelling headset", quantity: 1, unitPriceCents: 19900 }], shippingAddress: austin },
  { orderId: "ORD-10005", customerId: "CUS-0003", status: "delivered", placedAt: "2025-12-10T12:00:00Z", deliveredAt: "2025-12-13T09:30:00Z", currency: "GBP", items: [{ sku: "DESK-SIT-160", name: "Sit-stand desk, 160 cm", quantity: 2, unitPriceCents: 42900 }, { sku: "MAT-AF-90", name: "Anti-fatigue mat", quantity: 2, unitPriceCents: 4900 }], shippingAddress: leeds, trackingUrl: "https://track.example-freight.com/t/1Z999AA10123456799" },
  { orderId: "ORD-10006", customerId: "CUS-0003", status: "cancelled", placedAt: "2026-02-14T15:20:00Z", currency: "GBP", items: [{ sku: "CHR-TASK-BLK", name: "Task chair, black", quantity: 1, unitPriceCents: 24900 }], shippingAddress: leeds, cancelledAt: "2026-02-14T16:02:00Z", cancellationReason: "Ordered the wrong colour." },
  { orderId: "ORD-10007", customerId: "CUS-0004", status: "delivered", placedAt: "2026-02-09T07:55:00Z", deliveredAt: "2026-02-12T11:18:00Z", currency: "EUR", items: [{ sku: "LMP-LED-DSK", name: "LED desk lamp", quantity: 1, unitPriceCents: 3999 }], shippingAddress: lyon, trackingUrl: "https://track.example-parcel.com/p/JD0149988412" },
  { orderId: "ORD-10008", customerId: "CUS-0004", status: "processing", placedAt: "2026-03-02T19:44:00Z", currency: "EUR", items: [{ sku: "KB-TKL-BRN", name: "Tenkeyless keyboard, brown switches", quantity: 1, unitPriceCents: 8999 }, { sku: "KC-PBT-WHT", name: "PBT keycap set, white", quantity: 1, unitPriceCents: 3499 }], shippingAddress: lyon },
  { orderId: "ORD-10009", customerId: "CUS-0005", status: "shipped", placedAt: "2026-02-27T13:10:00Z", currency: "EUR", items: [{ sku: "DOCK-TB4", name: "Thunderbolt 4 dock", quantity: 1, unitPriceCents: 27900 }], shippingAddress: hamburg, trackingUrl: "https://track.example-parcel.com/p/JD0150410023" },
  { orderId: "ORD-10010", customerId: "CUS-0005", status: "delivered", placedAt: "2025-11-21T09:00:00Z", deliveredAt: "2025-11-25T15:12:00Z", currency: "EUR", items: [{ sku: "CAM-4K-USB", name: "4K webcam", quantity: 1, unitPriceCents: 12900 }, { sku: "LGT-RING-10", name: "10-inch ring light", quantity: 1, unitPriceCents: 2999 }], shippingAddress: hamburg, trackingUrl: "https://track.example-parcel.com/p/JD0148120957" },
];

/** Keyed by order id; write tools change it in place. */
export const orders = new Map<string, Order>(SEED.map((order) => [order.orderId, structuredClone(order)]));

export function findOrder(orderId: string): Order {
  const order = orders.get(orderId);
  if (!order) throw new Error(`No order ${orderId}. Check the id (ORD- and five digits).`);
  return order;
}

export function orderTotalCents(order: Order): number {
  return order.items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
}
