import { tool } from "cave";
import { z } from "zod";
import { findOrder } from "../data/orders.js";

/**
 * This module uses zod 4 rather than `schema`: zod is a Standard Schema v1 library that can also emit its
 * own draft-07 JSON Schema (`~standard.jsonSchema`), so providers still see the shape. Zod also normalises
 * (trims, upper-cases the postal code) before `execute` runs, which `schema` cannot express.
 */
const Country = z.enum(["DE", "ES", "FR", "GB", "NL", "US"]).describe("Countries we deliver to (ISO 3166-1 alpha-2).");

const ShippingAddress = z.strictObject({
  line1: z.string().trim().min(1).max(100),
  line2: z.string().trim().max(100).optional(),
  city: z.string().trim().min(1).max(60),
  postalCode: z.string().trim().toUpperCase().min(2).max(12),
  country: Country,
});

export const ShippingAddressInput = z.strictObject({
  orderId: z
    .string()
    .regex(/^ORD-[0-9]{5}$/)
    .describe("Order id, e.g. ORD-10001."),
  address: ShippingAddress,
});

export const ShippingAddressOutput = z.strictObject({
  orderId: z.string(),
  shippingAddress: ShippingAddress,
  updatedAt: z.iso.datetime(),
});

/**
 * Bump when the validators' behaviour changes in a way their JSON Schema does not show (the trim and
 * upper-case normalisations above are code, not JSON Schema), then recompute the hash below.
 */
export const SHIPPING_SCHEMA_REVISION = 1;

/**
 * schemaSemanticsSHA256: Cave cannot see inside zod, so a lock identifies these opaque validators by this hash,
 * and keeping it true is the author's responsibility. It is the lowercase hex SHA-256 of the RFC 8785
 * canonical JSON of
 *   { vendor: "zod", version: "<major>.<minor>.<patch>" (z.core.version), revision: SHIPPING_SCHEMA_REVISION,
 *     input:  { input: ShippingAddressInput["~standard"].jsonSchema.input({ target: "draft-07" }),  output: <same, .output> },
 *     output: { input: ShippingAddressOutput["~standard"].jsonSchema.input({ target: "draft-07" }), output: <same, .output> } }
 * i.e. what the validators accept and produce, the zod version that runs them, and the revision of the code
 * the JSON Schema cannot show. test/sdk/example.test.ts recomputes it, and fails (printing the new value)
 * when zod, these schemas or the revision change without the hash being updated.
 */
export const updateShippingAddress = tool({
  name: "update_shipping_address",
  description:
    "Change where an order that is still processing will be delivered. Confirm the full new address with the customer first; shipped orders cannot be redirected here.",
  input: ShippingAddressInput,
  output: ShippingAddressOutput,
  schemaSemanticsSHA256: "3c54ae26cc49ee92b21894359c05d9291cf74b904d716c83ed82196272c38ecc",
  effect: "write",
  timeout: 10_000,
  execute({ orderId, address }) {
    const order = findOrder(orderId);
    if (order.status !== "processing") {
      throw new Error(
        `Order ${orderId} is ${order.status}; the address can only change while it is processing. Point the customer to the carrier's redirection page.`,
      );
    }
    order.shippingAddress = { ...address };
    return { orderId, shippingAddress: { ...address }, updatedAt: new Date().toISOString() };
  },
});
