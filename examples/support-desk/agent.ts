import { agent } from "cave";
import { getCustomer, sendCustomerEmail, updateCustomerEmail } from "./tools/customers.js";
import { getSupportHours, searchKnowledgeBase } from "./tools/knowledge-base.js";
import { cancelOrder, getOrder, listCustomerOrders } from "./tools/orders.js";
import {
  checkRefundStatus,
  getRefundPolicy,
  issueRefund,
  listOrderRefunds,
  prepareRefundCase,
  refundAndNotifyCustomer,
} from "./tools/refunds.js";
import { placeReplacementOrder } from "./tools/replacements.js";
import { updateShippingAddress } from "./tools/shipping.js";
import { addTicketNote, closeTicket, createTicket, getTicketTranscript } from "./tools/tickets.js";
import { escalateToVendor } from "./tools/vendor-tickets.js";

export const supportDesk = agent({
  name: "support_desk",
  description:
    "First-line customer support for an online electronics shop: answers questions from the help centre, looks up orders and customers, handles cancellations, address changes, refunds and replacements, and keeps tickets up to date.",
  tools: [
    searchKnowledgeBase,
    getSupportHours,
    getCustomer,
    updateCustomerEmail,
    sendCustomerEmail,
    getOrder,
    listCustomerOrders,
    cancelOrder,
    updateShippingAddress,
    getRefundPolicy,
    listOrderRefunds,
    prepareRefundCase,
    issueRefund,
    checkRefundStatus,
    refundAndNotifyCustomer,
    placeReplacementOrder,
    createTicket,
    addTicketNote,
    closeTicket,
    getTicketTranscript,
    escalateToVendor,
  ],
});
