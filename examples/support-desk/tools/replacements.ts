// The order store: replacement orders for items that arrived broken, kept in a SQLite database on disk
// (better-sqlite3 12, a native addon, listed in cave.config.json "external" and pinned from package-lock.json).
// The tool runs in the default sandbox with two powers, both locked and shown by `cave diff`: write access to the
// data/orders/ folder (a write scope: a folder, so SQLite's -wal and -shm side files land beside the database) and
// native addons. Both need the sandbox's OS layer (bubblewrap); without it the runtime refuses the tool.
import Database from "better-sqlite3";
import { schema, tool, type Static } from "cave";
import { findOrder } from "../data/orders.js";
import { OrderId, Timestamp } from "./shared-schemas.js";

/** The write scope, relative to the project root (the tool's working directory). */
const STORE_DIR = "data/orders";
const STORE_FILE = `${STORE_DIR}/orders.db`;

const ReplacementId = schema.string({
  pattern: "^RPL-[0-9]{5}$",
  description: "Replacement order id, e.g. RPL-00001.",
});
const Sku = schema.string({
  minLength: 1,
  maxLength: 32,
  description: "The SKU of the broken item, as on the original order.",
});

const Replacement = schema.object({
  replacementId: ReplacementId,
  orderId: OrderId,
  sku: Sku,
  name: schema.string({ maxLength: 120 }),
  quantity: schema.integer({ minimum: 1, maximum: 99 }),
  reason: schema.string({ minLength: 3, maxLength: 500 }),
  placedAt: Timestamp,
});

interface ReplacementRow {
  id: number;
  order_id: string;
  sku: string;
  name: string;
  quantity: number;
  reason: string;
  placed_at: string;
}

// One connection per sandbox process: opened at the first call, kept while the process stays warm. WAL mode lets a
// reader in another process (another run's child) read while this one writes; every commit reaches the disk
// (synchronous FULL), so a process killed between calls loses nothing: the next connection replays the WAL.
let store: Database.Database | undefined;

function openStore(): Database.Database {
  if (store !== undefined) return store;
  const db = new Database(STORE_FILE);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 5000");
  db.exec(`create table if not exists replacements (
    id integer primary key autoincrement,
    order_id text not null,
    sku text not null,
    name text not null,
    quantity integer not null check (quantity > 0),
    reason text not null,
    placed_at text not null
  )`);
  store = db;
  return db;
}

function toReplacement(row: ReplacementRow): Static<typeof Replacement> {
  return {
    replacementId: `RPL-${String(row.id).padStart(5, "0")}`,
    orderId: row.order_id,
    sku: row.sku,
    name: row.name,
    quantity: row.quantity,
    reason: row.reason,
    placedAt: row.placed_at,
  };
}

export const placeReplacementOrder = tool({
  name: "place_replacement_order",
  description:
    "Send a free replacement for an item of a delivered order that arrived broken or faulty. At most as many units of an item as were ordered can be replaced over the order's life. Returns the new replacement and every replacement the order has had, so you can tell the customer what is already on its way.",
  input: schema.object({
    orderId: OrderId,
    sku: Sku,
    quantity: schema.integer({ minimum: 1, maximum: 99 }),
    reason: schema.string({
      minLength: 3,
      maxLength: 500,
      description: "What is wrong with the item, in the customer's words.",
    }),
  }),
  output: schema.object({
    replacement: Replacement,
    replacementsForOrder: schema.array(Replacement, { maxItems: 100 }),
  }),
  effect: "write",
  timeout: 5_000,
  sandboxProfile: { addons: true, fs: { write: [STORE_DIR] } },
  execute({ orderId, sku, quantity, reason }) {
    const order = findOrder(orderId);
    if (order.status !== "delivered")
      throw new Error(`Order ${orderId} is ${order.status}; replacements are sent for delivered orders only.`);
    const item = order.items.find((candidate) => candidate.sku === sku);
    if (item === undefined)
      throw new Error(
        `Order ${orderId} has no item ${sku}; its items are ${order.items.map((candidate) => candidate.sku).join(", ")}.`,
      );
    const db = openStore();
    const place = db.transaction((): ReplacementRow[] => {
      const { replaced } = db
        .prepare("select coalesce(sum(quantity), 0) as replaced from replacements where order_id = ? and sku = ?")
        .get(orderId, sku) as { replaced: number };
      if (replaced + quantity > item.quantity) {
        const left = item.quantity - replaced;
        throw new Error(
          `Order ${orderId} had ${item.quantity} of ${sku} and ${replaced} ${replaced === 1 ? "was" : "were"} replaced already; ${left === 0 ? "none can" : `at most ${left} more can`} be replaced. Offer a refund instead.`,
        );
      }
      db.prepare(
        "insert into replacements (order_id, sku, name, quantity, reason, placed_at) values (?, ?, ?, ?, ?, ?)",
      ).run(orderId, sku, item.name, quantity, reason, new Date().toISOString());
      return db.prepare("select * from replacements where order_id = ? order by id").all(orderId) as ReplacementRow[];
    });
    const rows = place.immediate();
    const replacementsForOrder = rows.map(toReplacement);
    return { replacement: replacementsForOrder[replacementsForOrder.length - 1]!, replacementsForOrder };
  },
});
