import { agent } from "cave";
import { cancelOrder, lookupOrder } from "./tools/orders.js";
import { refundOrder } from "./tools/refund.js";
import { searchDocs } from "./tools/search.js";

export const support = agent({ name: "support", description: "Answers order questions.", tools: [lookupOrder, cancelOrder, refundOrder, searchDocs] });
