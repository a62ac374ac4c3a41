/** Support tickets and their conversations. */
export type TicketStatus = "open" | "waiting_on_customer" | "closed";
export type Priority = "low" | "normal" | "high" | "urgent";

export interface TicketMessage {
  author: "customer" | "agent" | "internal_note";
  sentAt: string;
  body: string;
}

export interface Ticket {
  ticketId: string;
  customerId: string;
  orderId?: string;
  subject: string;
  status: TicketStatus;
  priority: Priority;
  createdAt: string;
  closedAt?: string;
  resolution?: string;
  messages: TicketMessage[];
}

const SEED: readonly Ticket[] = [
  {
    ticketId: "TCK-2001",
    customerId: "CUS-0002",
    orderId: "ORD-10003",
    subject: "Monitor arm arrived bent",
    status: "open",
    priority: "normal",
    createdAt: "2026-02-02T18:20:00Z",
    messages: [
      { author: "customer", sentAt: "2026-02-02T18:20:00Z", body: "The monitor arm in my order arrived with the upper joint bent; it cannot hold the monitor level. Photos attached." },
      { author: "agent", sentAt: "2026-02-03T09:12:00Z", body: "Sorry about that. I have refunded the arm in full; you do not need to send it back." },
      { author: "customer", sentAt: "2026-02-03T09:40:00Z", body: "Thank you. Will the refund show up on the same card?" },
    ],
  },
  {
    ticketId: "TCK-2002",
    customerId: "CUS-0001",
    orderId: "ORD-10002",
    subject: "Where is my mouse?",
    status: "waiting_on_customer",
    priority: "low",
    createdAt: "2026-02-26T08:05:00Z",
    messages: [
      { author: "customer", sentAt: "2026-02-26T08:05:00Z", body: "Tracking has not moved for four days. Is the parcel lost?" },
      { author: "agent", sentAt: "2026-02-26T10:30:00Z", body: "The carrier reports a delay at the Leipzig hub. Could you confirm your building has a parcel box?" },
    ],
  },
  {
    ticketId: "TCK-2003",
    customerId: "CUS-0003",
    subject: "VAT invoice for a business purchase",
    status: "closed",
    priority: "normal",
    createdAt: "2025-12-15T13:00:00Z",
    closedAt: "2025-12-15T15:45:00Z",
    resolution: "Sent a VAT invoice with the company number.",
    messages: [
      { author: "customer", sentAt: "2025-12-15T13:00:00Z", body: "Please send a VAT invoice for ORD-10005 with our company number GB123456789." },
      { author: "agent", sentAt: "2025-12-15T15:40:00Z", body: "Done: the invoice is attached to your order page." },
    ],
  },
];

/** Keyed by ticket id; write tools change it in place. */
export const tickets = new Map<string, Ticket>(SEED.map((ticket) => [ticket.ticketId, structuredClone(ticket)]));

export function findTicket(ticketId: string): Ticket {
  const ticket = tickets.get(ticketId);
  if (!ticket) throw new Error(`No ticket ${ticketId}. Check the id (TCK- and four digits).`);
  return ticket;
}

export function nextTicketId(): string {
  return `TCK-${2001 + tickets.size}`;
}
