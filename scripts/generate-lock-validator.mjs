// Generates runtime/lock/lock-shape.generated.ts from docs/cave.lock.schema.json: the runtime's check of the lock's
// shape, compiled ahead by Ajv (standalone ESM) and bundled by esbuild with the Ajv runtime helper it reads, so the
// module imports nothing (a runtime-only deploy carries no schema compiler). Two validators, because the runtime checks
// the header at start-up and each tool's entry on its first use: `header` (the lock without `tools`) and `tool` (one
// entry); a whole lock is its header and each entry. `discriminators` lists each union told apart by a tag property
// (by the property holding it) with the tag's values, which runtime/lock/shape-problem.ts names when a tag matches none.
// `definitions` is the schema's definitions as Ajv compiles them, and `headerSchema` the header's own node, as data:
// runtime/lock/shape-walk.ts checks a tool's entry, and the runtime's start-up the header, by walking them (Ajv's `tool`
// and `header` stay in the module for whole-lock checks, and test/runtime/shape-walk.test.ts holds the walk to them).
//
// Run by npm run build; test/lock-validator.test.ts regenerates it in memory and compares bytes.
// Usage: node scripts/generate-lock-validator.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { build } from "esbuild";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_FILE = "docs/cave.lock.schema.json";
export const OUTPUT_FILE = "runtime/lock/lock-shape.generated.ts";
const HEADER = [
  `// DO NOT EDIT: generated from ${SCHEMA_FILE} by scripts/generate-lock-validator.mjs (npm run build).`,
  "// @ts-nocheck",
].join("\n");

const ANNOTATIONS = new Set(["title", "description"]);

/**
 * The schema as the generated code checks it, with the same meaning: a union of null and an object becomes an object
 * schema that also admits null (its keywords apply to objects only), and a union of objects told apart by a `const` or
 * `enum` tag gets Ajv's discriminator, so a failure is reported from the branch the lock's tag chose.
 */
function forChecking(schema, at, discriminators) {
  if (Array.isArray(schema)) return schema.map((item, i) => forChecking(item, `${at}/${i}`, discriminators));
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  // Annotations say nothing about validity; left out, they would be carried as data into the module.
  for (const key of Object.keys(schema))
    if (!ANNOTATIONS.has(key) || at.endsWith("/properties"))
      out[key] = forChecking(schema[key], `${at}/${key}`, discriminators);
  if (!Array.isArray(out.oneOf)) return out;
  const branches = out.oneOf;
  const nullable = branches.findIndex((b) => b.type === "null" && Object.keys(b).length === 1);
  if (branches.length === 2 && nullable !== -1 && branches[1 - nullable].type === "object") {
    const { oneOf: _oneOf, ...rest } = out;
    return { ...rest, ...branches[1 - nullable], type: ["object", "null"] };
  }
  const tag = tagOf(branches);
  if (tag === undefined) return out;
  const values = branches.flatMap((b) =>
    b.properties[tag].const !== undefined ? [b.properties[tag].const] : b.properties[tag].enum,
  );
  // Keyed by the property that holds the union: Ajv's error names the schema path from the nearest compiled function.
  const holder = /\/properties\/([^/]+)$/.exec(at)?.[1];
  if (holder === undefined || Object.hasOwn(discriminators, holder))
    throw new Error(`generate-lock-validator: the union at ${at} needs a property name of its own`);
  discriminators[holder] = { tag, values };
  return { type: "object", required: [tag], ...out, discriminator: { propertyName: tag } };
}

/** The property every branch requires and fixes to a const or an enum of strings, if there is one. */
function tagOf(branches) {
  const first = branches[0];
  if (first?.type !== "object" || first.properties === undefined) return undefined;
  return Object.keys(first.properties).find((key) =>
    branches.every(
      (b) =>
        b.type === "object" &&
        b.required?.includes(key) &&
        (typeof b.properties?.[key]?.const === "string" ||
          b.properties?.[key]?.enum?.every((v) => typeof v === "string")),
    ),
  );
}

/** ajv/dist/runtime/equal, as scripts/lock-validator-equal.cjs gives it. */
const ajvEqualWithoutNote = {
  name: "ajv-equal-without-note",
  setup(b) {
    b.onResolve({ filter: /^ajv\/dist\/runtime\/equal$/ }, () => ({
      path: join(repoRoot, "scripts", "lock-validator-equal.cjs"),
    }));
  },
};

/** The generated module's text. */
export async function generateLockValidator() {
  const discriminators = {};
  const lock = forChecking(JSON.parse(readFileSync(join(repoRoot, SCHEMA_FILE), "utf8")), "#", discriminators);
  const { tools: _tools, ...headerProperties } = lock.properties;
  const header = {
    ...lock,
    $id: "cave.lock.header",
    required: lock.required.filter((key) => key !== "tools"),
    properties: headerProperties,
  };
  // As the precompiled validators (compiler/validators/ajv-options.ts): stop at the first problem, own properties only,
  // patterns with the u flag, nothing changed in the value checked.
  const ajv = new Ajv({
    strictSchema: true,
    strictTypes: false,
    allErrors: false,
    ownProperties: true,
    verbose: false,
    messages: false,
    discriminator: true,
    // minLength and maxLength count UTF-16 code units, as src/contract/fs-scopes.ts measures a scope (its 512 limit),
    // so the module needs no helper to count code points.
    unicode: false,
    unicodeRegExp: true,
    logger: false,
    code: { source: true, esm: true, lines: true },
  });
  ajv.addSchema(lock, "cave.lock");
  ajv.addSchema(header);
  const code = standaloneCode.default(ajv, { header: "cave.lock.header", tool: "cave.lock#/definitions/tool" });
  const bundled = await build({
    stdin: { contents: code, resolveDir: repoRoot, sourcefile: "lock-shape.js", loader: "js" },
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "node20",
    minify: false,
    legalComments: "none",
    logLevel: "silent",
    plugins: [ajvEqualWithoutNote],
  });
  const table = `export const discriminators = ${JSON.stringify(discriminators, null, 2)};\n`;
  const data = `export const definitions = ${JSON.stringify(lock.definitions)};\n`;
  // The header's own schema as data (its definitions are the ones above): the runtime walks it at start-up.
  const { $id: _id, $schema: _schema, definitions: _definitions, ...headerNode } = header;
  const headerData = `export const headerSchema = ${JSON.stringify(headerNode)};\n`;
  return `${HEADER}\n${bundled.outputFiles[0].text}${table}${data}${headerData}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generateLockValidator();
  const target = join(repoRoot, OUTPUT_FILE);
  if (process.argv.includes("--check")) {
    if (readFileSync(target, "utf8") !== text) {
      console.error(
        `generate-lock-validator: ${OUTPUT_FILE} is out of date; run node scripts/generate-lock-validator.mjs`,
      );
      process.exit(1);
    }
  } else writeFileSync(target, text);
}
