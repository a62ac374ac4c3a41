import { schema, tool } from "cave";
import { findOrder } from "../data/orders.js";
import { OrderId } from "./shared-schemas.js";

/** The hardware vendor's ticketing API. The tool may reach this host only, and its token is added by cave's egress broker. */
const VENDOR_API = "https://support.vendor.example";

export const escalateToVendor = tool({
  name: "escalate_to_vendor",
  description:
    "Open a ticket with the hardware vendor's support desk about a faulty product in one order (warranty repairs and replacements the shop cannot decide itself). Returns the vendor's ticket reference.",
  input: schema.object({
    orderId: OrderId,
    problem: schema.string({
      minLength: 10,
      maxLength: 2000,
      description: "What is wrong with the product, in the customer's words.",
    }),
  }),
  output: schema.object({
    vendorTicket: schema.string({ pattern: "^VT-[0-9]+$" }),
    status: schema.string({ maxLength: 40 }),
  }),
  effect: "external",
  timeout: 15_000,
  sandboxProfile: {
    egress: ["support.vendor.example"],
    // The token never reaches this code: the broker adds `authorization: Bearer <token>` to requests to the vendor.
    secrets: { VENDOR_DESK_TOKEN: { hosts: ["support.vendor.example"], header: "authorization", format: "Bearer {}" } },
  },
  async execute({ orderId, problem }, context) {
    const order = findOrder(orderId);
    const response = await fetch(`${VENDOR_API}/api/tickets`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": context.callId },
      body: JSON.stringify({ reference: orderId, products: order.items.map((item) => item.sku), problem }),
      signal: context.signal,
    });
    if (!response.ok)
      throw new Error(`the vendor's desk answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    const ticket = (await response.json()) as { id: number; status: string };
    return { vendorTicket: `VT-${ticket.id}`, status: ticket.status };
  },
});
