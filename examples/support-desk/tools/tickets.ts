import { schema, tool } from "cave";
import { findCustomer } from "../data/customers.js";
import { findOrder } from "../data/orders.js";
import { findTicket, nextTicketId, tickets, type Ticket } from "../data/tickets.js";
import { CustomerId, OrderId, TicketId, Timestamp } from "./shared-schemas.js";

const Priority = schema.union([
  schema.literal("low"),
  schema.literal("normal"),
  schema.literal("high"),
  schema.literal("urgent"),
]);
const TicketStatus = schema.union([
  schema.literal("open"),
  schema.literal("waiting_on_customer"),
  schema.literal("closed"),
]);

export const createTicket = tool({
  name: "create_ticket",
  description:
    "Open a support ticket for a customer, optionally about one order, with the customer's first message. Use it for anything that needs follow-up after this conversation.",
  input: schema.object({
    customerId: CustomerId,
    orderId: schema.optional(OrderId),
    subject: schema.string({ minLength: 3, maxLength: 150 }),
    message: schema.string({ minLength: 1, maxLength: 5000, description: "The customer's request, in their words." }),
    priority: schema.optional(Priority),
  }),
  output: schema.object({ ticketId: TicketId, status: TicketStatus, priority: Priority, createdAt: Timestamp }),
  effect: "write",
  execute({ customerId, orderId, subject, message, priority = "normal" }) {
    findCustomer(customerId);
    if (orderId !== undefined && findOrder(orderId).customerId !== customerId) {
      throw new Error(`Order ${orderId} does not belong to ${customerId}.`);
    }
    const createdAt = new Date().toISOString();
    const ticket: Ticket = {
      ticketId: nextTicketId(),
      customerId,
      ...(orderId === undefined ? {} : { orderId }),
      subject,
      status: "open",
      priority,
      createdAt,
      messages: [{ author: "customer", sentAt: createdAt, body: message }],
    };
    tickets.set(ticket.ticketId, ticket);
    return { ticketId: ticket.ticketId, status: ticket.status, priority, createdAt };
  },
});

export const addTicketNote = tool({
  name: "add_ticket_note",
  description: "Add a reply to the customer, or an internal note only staff can see, to an open ticket.",
  input: schema.object({
    ticketId: TicketId,
    body: schema.string({ minLength: 1, maxLength: 5000 }),
    internal: schema.boolean({ description: "True for a staff-only note, false for a reply the customer sees." }),
  }),
  output: schema.object({ ticketId: TicketId, messageCount: schema.integer({ minimum: 1 }), status: TicketStatus }),
  effect: "write",
  execute({ ticketId, body, internal }) {
    const ticket = findTicket(ticketId);
    if (ticket.status === "closed") throw new Error(`Ticket ${ticketId} is closed; open a new ticket instead.`);
    ticket.messages.push({ author: internal ? "internal_note" : "agent", sentAt: new Date().toISOString(), body });
    if (!internal) ticket.status = "waiting_on_customer";
    return { ticketId, messageCount: ticket.messages.length, status: ticket.status };
  },
});

export const closeTicket = tool({
  name: "close_ticket",
  description:
    "Close a ticket with a short resolution. Closing an already closed ticket changes nothing and returns the original closing time.",
  input: schema.object({ ticketId: TicketId, resolution: schema.string({ minLength: 3, maxLength: 500 }) }),
  output: schema.object({
    ticketId: TicketId,
    status: schema.literal("closed"),
    closedAt: Timestamp,
    resolution: schema.string(),
  }),
  // Closing twice has the effect of closing once.
  effect: "idempotent",
  execute({ ticketId, resolution }) {
    const ticket = findTicket(ticketId);
    if (ticket.status !== "closed" || ticket.closedAt === undefined) {
      ticket.status = "closed";
      ticket.closedAt = new Date().toISOString();
      ticket.resolution = resolution;
    }
    return {
      ticketId,
      status: "closed" as const,
      closedAt: ticket.closedAt,
      resolution: ticket.resolution ?? resolution,
    };
  },
});

export const getTicketTranscript = tool({
  name: "get_ticket_transcript",
  description: "Read the full conversation of a ticket, every message with its author and time, exactly as written.",
  input: schema.object({ ticketId: TicketId }),
  output: schema.object({
    ticketId: TicketId,
    customerId: CustomerId,
    subject: schema.string(),
    status: TicketStatus,
    messages: schema.array(
      schema.object({
        author: schema.union([schema.literal("customer"), schema.literal("agent"), schema.literal("internal_note")]),
        sentAt: Timestamp,
        body: schema.string(),
      }),
    ),
  }),
  effect: "read",
  // Transcripts are quoted back to customers and auditors: any shortened view must be recoverable byte for byte.
  result: "exact_ccr",
  execute({ ticketId }) {
    const ticket = findTicket(ticketId);
    return {
      ticketId,
      customerId: ticket.customerId,
      subject: ticket.subject,
      status: ticket.status,
      messages: ticket.messages.map((message) => ({ ...message })),
    };
  },
});
