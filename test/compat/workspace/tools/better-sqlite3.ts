// better-sqlite3 12 is a native addon: listed in cave.config.json "external", it is imported from node_modules at
// run time (pinned in the lock by version and integrity), and the sandboxed tool asks for addons: true, which it gets
// only under the sandbox's OS layer.
import Database from "better-sqlite3";
import { schema, tool } from "cave";

const input = schema.object({ rows: schema.array(schema.object({ name: schema.string(), qty: schema.integer() })) });
const output = schema.object({ total: schema.integer(), names: schema.array(schema.string()), sqlite: schema.string() });

function execute({ rows }: { rows: Array<{ name: string; qty: number }> }) {
  const db = new Database(":memory:");
  try {
    db.exec("create table items (name text not null, qty integer not null)");
    const insert = db.prepare("insert into items (name, qty) values (?, ?)");
    db.transaction((all: typeof rows) => {
      for (const row of all) insert.run(row.name, row.qty);
    })(rows);
    const { total } = db.prepare("select coalesce(sum(qty), 0) as total from items").get() as { total: number };
    const names = (db.prepare("select name from items order by name").all() as Array<{ name: string }>).map((row) => row.name);
    const { version } = db.prepare("select sqlite_version() as version").get() as { version: string };
    return { total, names, sqlite: version };
  } finally {
    db.close();
  }
}

export const sqliteTotals = tool({ name: "sqlite_totals", description: "Sums quantities in an in-memory SQLite database.", effect: "read", sandboxProfile: { addons: true }, input, output, execute });
export const sqliteTotalsHost = tool({ name: "sqlite_totals_host", description: "Sums quantities in an in-memory SQLite database, in process.", effect: "read", sandbox: "none", input, output, execute });
