// table@1, staged verbatim into the build folder: an array of records as its column names once, then one row per
// record. Lossless: a key a record does not have is listed in "absent" as [row, column], so a missing key and a null
// stay different.
// Type-checked as JavaScript by tsconfig.transforms.json. The staged module is this file without these leading comment
// lines (compiler/results/registry.ts), byte for byte, so its locked sha256 is the same wherever cave runs from.
export const id = "table";
export const version = 1;
export const lossless = true;

function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** {"columns":[...],"rows":[[...],...],"absent":[[row,column],...]} with "absent" only when some key is missing. */
export function encode(value) {
  if (!Array.isArray(value)) throw new TypeError("table@1 encodes an array of objects; got " + (value === null ? "null" : typeof value));
  const columns = [];
  const index = new Map();
  for (let r = 0; r < value.length; r++) {
    const record = value[r];
    if (!isRecord(record)) throw new TypeError("table@1 encodes an array of objects; item " + r + " is not an object");
    for (const key of Object.keys(record)) {
      if (!index.has(key)) {
        index.set(key, columns.length);
        columns.push(key);
      }
    }
  }
  const rows = [];
  const absent = [];
  for (let r = 0; r < value.length; r++) {
    const record = value[r];
    const row = new Array(columns.length).fill(null);
    for (let c = 0; c < columns.length; c++) {
      if (Object.prototype.hasOwnProperty.call(record, columns[c])) row[c] = record[columns[c]];
      else absent.push([r, c]);
    }
    rows.push(row);
  }
  const table = { columns: columns, rows: rows };
  if (absent.length > 0) table.absent = absent;
  return JSON.stringify(table);
}

export function decode(text) {
  const table = JSON.parse(text);
  const columns = table.columns;
  const missing = new Set((table.absent || []).map((pair) => pair[0] + ":" + pair[1]));
  return table.rows.map((row, r) => {
    const record = {};
    for (let c = 0; c < columns.length; c++) {
      if (missing.has(r + ":" + c)) continue;
      Object.defineProperty(record, columns[c], { value: row[c], enumerable: true, writable: true, configurable: true });
    }
    return record;
  });
}
