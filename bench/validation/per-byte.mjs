// Validation cost per input byte, from 1 KiB to the 1 MiB input cap, for every SDK format and keyword (issue 13,
// item 2): the model alone must not be able to stall the host with a large argument. Each case is validated by the
// precompiled module `cave build` writes (compiler/validators, loaded as the runtime loads it), on the worst input
// found among adversarial shapes (a prefix, then one unit repeated, then a character that makes it fail at the end).
// Reported: ns per byte at each size, the ratio of the 1 MiB cost per byte to the 1 KiB one (flat: about 1; below 1
// where a fixed cost dominates small inputs), and what JSON.parse of the same argument costs per byte, for scale.
// Run: npm run build && node bench/validation/per-byte.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { compileValidators } from "../../dist/compiler/validators/index.js";
import { loadValidator } from "../../dist/runtime/loading/validator-module.js";
import { SCHEMA_FORMATS } from "../../dist/src/schema.js";

const SIZES = [1 << 10, 1 << 14, 1 << 18, 1 << 20];
const UNITS = [
  "a",
  "1",
  ".",
  "-",
  ":",
  "/",
  "@",
  "%2",
  "a.",
  "a:",
  "::",
  "1:",
  "[:",
  "][",
  "a@",
  "a/",
  "1.",
  "1-",
  "-a",
  "(?:",
  "\\p{L}",
  "(?=a)",
  "{a",
  "~0",
  "1D",
  "T1",
  "+",
  "=",
  " ",
  "\u00e9",
];
const PREFIXES = ["", "a:", "http://", "a://", "//", "/", "P", "1", "mailto:a@", "{", "1970-01-01T", "[", "a@"];
const TAILS = ["\u0000", "", "!"];

const root = mkdtempSync(join(tmpdir(), "cave-bench-validation-"));
async function compile(name, jsonSchema) {
  const result = await compileValidators(root, ".cave", [{ jsonSchema, owner: `bench ${name}` }]);
  const module = [...result.validators.values()][0];
  if (module === undefined) throw new Error(`${name}: ${JSON.stringify(result.diagnostics)}`);
  mkdirSync(dirname(join(root, module.path)), { recursive: true });
  writeFileSync(join(root, module.path), module.code);
  return (await loadValidator(root, module.path, module.sha256)).validate;
}

function timePerCall(validate, value) {
  validate(value);
  let calls = 0;
  const started = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    validate(value);
    calls++;
    elapsed = process.hrtime.bigint() - started;
  } while (elapsed < 30_000_000n && calls < 1_000);
  return Number(elapsed) / calls;
}

const stringOf = (prefix, unit, tail) => (size) =>
  (prefix + unit.repeat(Math.ceil(size / unit.length))).slice(0, size - tail.length) + tail;
const cases = [];
for (const format of SCHEMA_FORMATS) {
  const shapes = [];
  for (const prefix of PREFIXES)
    for (const unit of UNITS) for (const tail of TAILS) shapes.push(stringOf(prefix, unit, tail));
  cases.push({ name: `format ${format}`, schema: { type: "string", format }, shapes });
}
const letters = (size) => "a".repeat(size);
cases.push({
  name: "pattern ^[a-z]+$",
  schema: { type: "string", pattern: "^[a-z]+$" },
  shapes: [letters, stringOf("", "a", "!")],
});
cases.push({
  name: "minLength/maxLength",
  schema: { type: "string", minLength: 1, maxLength: 2_000_000 },
  shapes: [letters, stringOf("", "\u{1F600}", "")],
});
cases.push({ name: "enum (strings)", schema: { enum: ["x", "y", "z"] }, shapes: [letters] });
cases.push({
  name: "const (object)",
  schema: { const: { a: [1, 2, 3] } },
  shapes: [(size) => ({ a: Array.from({ length: size >> 2 }, () => 1) })],
});
const numbers = (size) => Array.from({ length: size >> 3 }, (_, i) => i + 0.5);
cases.push({
  name: "items number + multipleOf",
  schema: { type: "array", items: { type: "number", multipleOf: 0.5 } },
  shapes: [numbers],
});
cases.push({
  name: "uniqueItems (objects)",
  schema: { type: "array", uniqueItems: true },
  shapes: [(size) => Array.from({ length: size >> 5 }, (_, i) => ({ id: i, w: [i, "x"] }))],
});
cases.push({
  name: "uniqueItems (strings)",
  schema: { type: "array", uniqueItems: true },
  shapes: [(size) => Array.from({ length: size >> 4 }, (_, i) => `item-${i}`)],
});
cases.push({
  name: "minItems/maxItems",
  schema: { type: "array", minItems: 1, maxItems: 1_000_000 },
  shapes: [(size) => Array.from({ length: size >> 2 }, () => 1)],
});
const wideObject = (size) => Object.fromEntries(Array.from({ length: size >> 4 }, (_, i) => [`key${i}`, i]));
cases.push({
  name: "additionalProperties false",
  schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
  shapes: [(size) => ({ a: "a".repeat(size) }), wideObject],
});
cases.push({
  name: "min/maxProperties",
  schema: { type: "object", minProperties: 1, maxProperties: 1_000_000 },
  shapes: [wideObject],
});
cases.push({
  name: "required + nested",
  schema: {
    type: "object",
    required: ["a"],
    properties: {
      a: {
        type: "array",
        items: { type: "object", properties: { id: { type: "integer", minimum: 0 } }, required: ["id"] },
      },
    },
  },
  shapes: [(size) => ({ a: Array.from({ length: size >> 3 }, (_, i) => ({ id: i })) })],
});
cases.push({
  name: "anyOf",
  schema: { anyOf: [{ type: "integer" }, { type: "string", maxLength: 2_000_000 }] },
  shapes: [letters],
});

const bytes = (value) => Buffer.byteLength(JSON.stringify(value));
const rows = [];
for (const { name, schema, shapes } of cases) {
  const validate = await compile(name, schema);
  // The worst shape at 16 KiB, then that shape at every size.
  let worst = shapes[0];
  if (shapes.length > 1) {
    let worstCost = -1;
    for (const shape of shapes) {
      const value = shape(1 << 14);
      const started = process.hrtime.bigint();
      validate(value);
      const cost = Number(process.hrtime.bigint() - started);
      if (cost > worstCost) [worst, worstCost] = [shape, cost];
    }
  }
  const perByte = SIZES.map((size) => {
    const value = worst(size);
    return timePerCall(validate, value) / bytes(value);
  });
  // What the host pays anyway for the same argument: parsing its JSON text.
  const text = JSON.stringify(worst(SIZES.at(-1)));
  const parse = timePerCall(JSON.parse, text) / Buffer.byteLength(text);
  rows.push({ name, perByte, ratio: perByte.at(-1) / perByte[0], parse });
  console.error(`${name}: ${perByte.map((n) => n.toFixed(2)).join(" / ")} ns/B`);
}
rmSync(root, { recursive: true, force: true });

console.log(
  `| case | ns/B at ${SIZES.map((s) => (s >= 1 << 20 ? `${s >> 20} MiB` : `${s >> 10} KiB`)).join(" | ")} | 1 MiB / 1 KiB | JSON.parse ns/B at 1 MiB |`,
);
console.log(`| --- | ${SIZES.map(() => "---:").join(" | ")} | ---: | ---: |`);
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.perByte.map((n) => n.toFixed(2)).join(" | ")} | ${row.ratio.toFixed(2)} | ${row.parse.toFixed(2)} |`,
  );
const worstRow = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
console.log(`\nworst ratio: ${worstRow.name} ${worstRow.ratio.toFixed(2)}`);
