/**
 * Stands in for the email provider. A real send_customer_email would call the provider's API (and so
 * "leave the process", which is why it is declared `external`); the example queues the message here so
 * that it runs without network access.
 */
export interface OutgoingEmail {
  messageId: string;
  to: string;
  subject: string;
  body: string;
  ticketId?: string;
  queuedAt: string;
}

export const outbox: OutgoingEmail[] = [];
