import { schema, tool } from "cave";
import { findCustomer } from "../data/customers.js";
import { outbox } from "../data/outbox.js";
import { findTicket } from "../data/tickets.js";
import { CustomerId, CustomerProfile, Email, TicketId, Timestamp } from "./shared-schemas.js";

export const getCustomer = tool({
  name: "get_customer",
  description:
    "Look up a customer's profile (name, email, tier, region) by customer id. Use it before writing to a customer or applying a region's refund policy.",
  input: schema.object({ customerId: CustomerId }),
  output: CustomerProfile,
  effect: "read",
  // A profile is a handful of short fields: it always fits in context.
  result: "inline",
  execute({ customerId }) {
    const { name, email, tier, region, createdAt } = findCustomer(customerId);
    return { customerId, name, email, tier, region, createdAt };
  },
});

export const updateCustomerEmail = tool({
  name: "update_customer_email",
  description:
    "Change the email address on a customer's account, after the customer has confirmed the new address in the conversation.",
  input: schema.object({ customerId: CustomerId, email: Email }),
  output: schema.object({ customerId: CustomerId, previousEmail: Email, email: Email, updatedAt: Timestamp }),
  effect: "write",
  execute({ customerId, email }) {
    const customer = findCustomer(customerId);
    const previousEmail = customer.email;
    customer.email = email;
    return { customerId, previousEmail, email, updatedAt: new Date().toISOString() };
  },
});

export const sendCustomerEmail = tool({
  name: "send_customer_email",
  description:
    "Send an email to a customer at the address on file, optionally linked to a support ticket. Use it to confirm refunds, cancellations and other outcomes in writing.",
  input: schema.object({
    customerId: CustomerId,
    subject: schema.string({ minLength: 3, maxLength: 150 }),
    body: schema.string({ minLength: 10, maxLength: 5000 }),
    ticketId: schema.optional(TicketId),
  }),
  output: schema.object({ messageId: schema.string(), to: Email, queuedAt: Timestamp }),
  // Sending mail leaves the process: never speculated, never retried blindly.
  effect: "external",
  timeout: 15_000,
  execute({ customerId, subject, body, ticketId }) {
    const customer = findCustomer(customerId);
    if (ticketId !== undefined && findTicket(ticketId).customerId !== customerId) {
      throw new Error(`Ticket ${ticketId} belongs to another customer; do not send it to ${customerId}.`);
    }
    const queuedAt = new Date().toISOString();
    const messageId = `MSG-${String(outbox.length + 1).padStart(6, "0")}`;
    outbox.push({ messageId, to: customer.email, subject, body, ticketId, queuedAt });
    return { messageId, to: customer.email, queuedAt };
  },
});
