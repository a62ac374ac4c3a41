/** Help-centre articles the agent can search. */
export interface Article {
  articleId: string;
  title: string;
  url: string;
  tags: readonly string[];
  updatedAt: string;
  body: string;
}

export const articles: readonly Article[] = [
  {
    articleId: "KB-101",
    title: "How refunds work",
    url: "https://help.example.com/articles/how-refunds-work",
    tags: ["refund", "payment", "card"],
    updatedAt: "2026-01-15T09:00:00Z",
    body: "Refunds go back to the card or account you paid with. Once we issue a refund, your bank usually shows it within 3 to 5 business days. Partial refunds are possible for single items of an order. You will get an email when the refund is issued and another when it has settled.",
  },
  {
    articleId: "KB-102",
    title: "Refund windows by region",
    url: "https://help.example.com/articles/refund-windows",
    tags: ["refund", "policy", "return", "region"],
    updatedAt: "2026-01-15T09:00:00Z",
    body: "In the EU and the UK you can ask for a refund within 30 days of delivery. In the US the window is 14 days. Items above a region's return threshold must be sent back before the refund is issued; smaller items can be refunded without a return.",
  },
  {
    articleId: "KB-103",
    title: "Returning a damaged item",
    url: "https://help.example.com/articles/damaged-items",
    tags: ["damaged", "return", "refund", "photos"],
    updatedAt: "2025-11-02T14:30:00Z",
    body: "If an item arrives damaged, take photos of the item and the packaging and open a ticket. We refund damaged items in full, and you do not need to return items whose value is under the return threshold.",
  },
  {
    articleId: "KB-104",
    title: "Tracking a shipment",
    url: "https://help.example.com/articles/tracking",
    tags: ["shipping", "tracking", "delivery", "carrier"],
    updatedAt: "2025-10-20T08:00:00Z",
    body: "Every shipped order has a tracking link in the order page and in the shipping email. Tracking can pause for up to three business days at a carrier hub. If tracking has not moved for more than five business days, open a ticket and we will open an investigation with the carrier.",
  },
  {
    articleId: "KB-105",
    title: "Changing the shipping address",
    url: "https://help.example.com/articles/change-address",
    tags: ["shipping", "address", "order"],
    updatedAt: "2026-02-01T10:00:00Z",
    body: "You can change the shipping address while an order is still processing. Once the order has shipped, the carrier only accepts redirections through its own site. We deliver to DE, FR, GB, NL, ES and the US.",
  },
  {
    articleId: "KB-106",
    title: "Cancelling an order",
    url: "https://help.example.com/articles/cancel-order",
    tags: ["cancel", "order"],
    updatedAt: "2025-09-12T12:00:00Z",
    body: "Orders can be cancelled free of charge while they are processing. A cancelled order is refunded in full automatically. Shipped orders cannot be cancelled; return them instead once they arrive.",
  },
  {
    articleId: "KB-107",
    title: "VAT invoices for businesses",
    url: "https://help.example.com/articles/vat-invoices",
    tags: ["invoice", "vat", "business"],
    updatedAt: "2025-08-30T16:00:00Z",
    body: "Business customers can get a VAT invoice for any order. Add your company name and VAT number in your account settings, or ask support to add them to a past order.",
  },
  {
    articleId: "KB-108",
    title: "Warranty and repairs",
    url: "https://help.example.com/articles/warranty",
    tags: ["warranty", "repair", "defect"],
    updatedAt: "2025-07-04T09:00:00Z",
    body: "Electronics carry a two-year warranty against manufacturing defects. For a defect that appears after the refund window, open a ticket with the order id and a description; we repair or replace the item.",
  },
];

/** Support opening hours, in the desk's time zone. */
export const SUPPORT_HOURS = {
  timeZone: "Europe/Berlin",
  weekdays: { opens: "08:00", closes: "20:00" },
  saturday: { opens: "10:00", closes: "16:00" },
  sunday: null,
  holidays: ["2026-04-03", "2026-04-06", "2026-05-01", "2026-12-25", "2026-12-26"],
} as const;
