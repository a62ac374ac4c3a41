import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ajvBody } from "../../compiler/validators/ajv-body.js";
import { canonicalJson, sha256 } from "../../src/contract/hash.js";
import { metaChecker, schemaAjv } from "../../compiler/validators/ajv-options.js";
import { compileStandalone, standaloneCompiler, type Compiled } from "../../compiler/validators/compile.js";
import { routeHelpers } from "../../compiler/validators/helpers.js";
import { REPO_ROOT } from "../support/golden.js";

/**
 * The validators pass compiles every schema of a thread with one Ajv, reset before each (reusable-ajv.ts), which
 * builds no function from the code (schemaAjv's sourceOnly). Both are only allowed because they leave a validator's
 * bytes what they were, a function of its schema alone: this test compiles every schema the fixtures, the examples
 * and the JSON Schema Test Suite hold (plus refused ones in between) with a fresh, plain Ajv each and with the
 * pass's compiler, forwards and backwards, and requires the same result for each.
 */

function files(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, keep));
    else if (keep(name)) out.push(path);
  }
  return out;
}

/** Every JSON Schema a lock of the fixtures or examples holds (tool inputs and outputs, transparent or not). */
function lockSchemas(): unknown[] {
  const out: unknown[] = [];
  for (const path of [
    ...files(join(REPO_ROOT, "fixtures"), (n) => n.endsWith(".lock")),
    ...files(join(REPO_ROOT, "examples"), (n) => n.endsWith(".lock")),
  ]) {
    const lock = JSON.parse(readFileSync(path, "utf8")) as {
      tools?: Record<string, { input?: { jsonSchema?: unknown } | null; output?: { jsonSchema?: unknown } | null }>;
    };
    for (const tool of Object.values(lock.tools ?? {})) {
      for (const side of [tool.input, tool.output]) if (side?.jsonSchema) out.push(side.jsonSchema);
    }
  }
  return out;
}

function suiteSchemas(): unknown[] {
  return files(join(REPO_ROOT, "test", "data", "json-schema-test-suite", "draft7"), (n) => n.endsWith(".json")).flatMap(
    (path) => (JSON.parse(readFileSync(path, "utf8")) as Array<{ schema: unknown }>).map((group) => group.schema),
  );
}

/** Refused in different places of a compilation (precheck, Ajv's strict mode, a missing $ref), and schemas with ids. */
const SPECIAL: unknown[] = [
  { type: "string", minLenght: 3 },
  { $ref: "https://example.com/order.json" },
  { type: "object", properties: { a: { $ref: "#/definitions/missing" } } },
  { type: "string", format: "postcode" },
  {
    type: "object",
    properties: { when: { type: "string", format: "date-time" }, id: { $ref: "#/definitions/id" } },
    definitions: { id: { type: "string", pattern: "^x" } },
  },
  {
    $id: "http://example.com/root.json",
    type: "object",
    properties: { a: { $id: "item.json", type: "integer", multipleOf: 0.01 } },
  },
  {
    $id: "http://example.com/root.json",
    type: "object",
    properties: { b: { $ref: "item.json" } },
    definitions: { item: { $id: "item.json", type: "string" } },
  },
  {
    type: "array",
    items: { type: "object", properties: { t: { type: "string", minLength: 2 } }, required: ["t"] },
    uniqueItems: true,
  },
];

/** Distinct schemas in canonical JSON, as the validators pass hands them over, refused ones spread between them. */
function allSchemas(): unknown[] {
  const byHash = new Map<string, unknown>();
  for (const schema of [...lockSchemas(), ...suiteSchemas()]) {
    const text = canonicalJson(schema);
    byHash.set(sha256(text), JSON.parse(text));
  }
  const out = [...byHash.values()];
  for (const [i, schema] of SPECIAL.entries())
    out.splice(Math.floor(((i + 1) * out.length) / (SPECIAL.length + 1)), 0, JSON.parse(canonicalJson(schema)));
  return out;
}

describe("one reused Ajv per thread, compiling for the source only", () => {
  const schemas = allSchemas();
  const meta = metaChecker();
  const fresh = schemas.map((schema) => compileStandalone(schema, meta, () => schemaAjv({ sourceOnly: false })));

  test("covers the fixtures, the examples and the suite, compiled and refused", () => {
    expect(schemas.length).toBeGreaterThan(150);
    expect(fresh.filter((c) => c.ok).length).toBeGreaterThan(120);
    expect(fresh.filter((c) => !c.ok).length).toBeGreaterThanOrEqual(SPECIAL.length);
  });

  test("gives the code a fresh Ajv gives, for every schema, forwards and backwards", () => {
    const compile = standaloneCompiler();
    const forwards = schemas.map((schema) => compile(schema));
    const backwards = [...schemas]
      .reverse()
      .map((schema) => compile(schema))
      .reverse();
    const differing = (results: Compiled[]) =>
      results.flatMap((result, i) =>
        JSON.stringify(result) === JSON.stringify(fresh[i]) ? [] : [canonicalJson(schemas[i])],
      );
    expect(differing(forwards)).toEqual([]);
    expect(differing(backwards)).toEqual([]);
  });

  test("the comparison can fail: an Ajv reused without the reset numbers names on from earlier schemas", () => {
    const shared = schemaAjv();
    routeHelpers(shared);
    const compiled = fresh.filter((c): c is Extract<Compiled, { ok: true }> => c.ok).slice(0, 5);
    const unreset = schemas
      .filter((_, i) => fresh[i]!.ok)
      .slice(0, 5)
      .map((schema) => {
        const body = ajvBody(shared, shared.compile(schema as object));
        return body.ok ? body.code : body.fault;
      });
    expect(unreset[0]).toBe(compiled[0]!.code);
    expect(unreset.slice(1).some((code, i) => code !== compiled[i + 1]!.code)).toBe(true);
  });
});
