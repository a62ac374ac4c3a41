import { schema, tool } from "cave";

const ORDER = schema.object({ id: schema.integer(), customer: schema.string(), total: schema.number() });
const orders = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, customer: `Zoë Ångström ${i}`, total: i * 1.25 }));

/** An inline read whose content is its output object (MCP: outputSchema and structuredContent). */
export const lookupPolicy = tool({
  name: "lookup_policy",
  description: "Read the refund policy of a region.",
  input: schema.object({ region: schema.string({ minLength: 2, maxLength: 2 }) }),
  output: schema.object({ region: schema.string(), refundWindowDays: schema.integer() }),
  effect: "read",
  sandbox: "none",
  result: "inline",
  execute: ({ region }) => ({ region, refundWindowDays: region === "EU" ? 14 : 30 }),
});

/** A write: repeats are stopped, failures must never be retried by a host. */
export const issueRefund = tool({
  name: "issue_refund",
  description: "Refund an order.",
  input: schema.object({ orderId: schema.string(), cents: schema.integer({ minimum: 1 }) }),
  effect: "write",
  sandbox: "none",
  execute: ({ orderId, cents }) => ({ refunded: orderId, cents }),
});

/** Orders: paged when many (auto plan on an unbounded array). */
export const listOrders = tool({
  name: "list_orders",
  description: "Orders; count says how many.",
  input: schema.object({ count: schema.integer({ minimum: 0, maximum: 100000 }) }),
  output: schema.array(ORDER),
  effect: "read",
  sandbox: "none",
  execute: ({ count }) => orders(count),
});

/** Long text: the exact text is stored and a view with a reference enters context (cave_recover). */
export const readLog = tool({
  name: "read_log",
  description: "The service log.",
  input: schema.object({ lines: schema.integer({ minimum: 0, maximum: 100000 }) }),
  output: schema.string(),
  effect: "read",
  sandbox: "none",
  execute: ({ lines }) => Array.from({ length: lines }, (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO served request ${i}`).join("\n"),
});

/** Never finishes within its 300 ms timeout. */
export const hang = tool({
  name: "hang",
  description: "Never finish.",
  effect: "read",
  sandbox: "none",
  timeout: 300,
  allowRepeat: true,
  execute: () => new Promise<never>(() => {}),
});

/** A long write (locked timeout over a client's 60 s): sleeps `ms`, stops when its signal aborts. */
export const slowWrite = tool({
  name: "slow_write",
  description: "Write something slowly.",
  input: schema.object({ id: schema.string(), ms: schema.integer({ minimum: 0 }) }),
  effect: "write",
  sandbox: "none",
  timeout: 120_000,
  execute: ({ id, ms }, context) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ wrote: id }), ms);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("stopped"));
      });
    }),
});

/** An in-process tool that writes to stdout, which must never reach the stdio JSON-RPC stream. */
export const noisy = tool({
  name: "noisy",
  description: "Talk on stdout.",
  effect: "read",
  sandbox: "none",
  allowRepeat: true,
  execute: () => {
    console.log("noise from a tool on stdout");
    process.stdout.write("{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}\n");
    return { said: "noise" };
  },
});

/** Sandboxed (the default): runs in a child process. */
export const whoami = tool({
  name: "whoami",
  description: "Which process runs this.",
  effect: "read",
  allowRepeat: true,
  execute: () => ({ sandboxed: true }),
});
