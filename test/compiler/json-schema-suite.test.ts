import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compileValidators } from "../../compiler/validators/index.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { ValidatorsResult } from "../../compiler/types.js";
import { hashJson } from "../../src/contract/hash.js";
import { loadValidator, type CompiledValidator } from "../../runtime/loading/validator-module.js";

/**
 * The JSON Schema Test Suite's draft-07 cases (vendored under test/data/json-schema-test-suite/draft7, see its
 * README) for every keyword the schema wrapper can emit, and the formats it accepts, run through precompiled,
 * bundled validators loaded the way the runtime loads them.
 */

const SUITE = fileURLToPath(new URL("../data/json-schema-test-suite/draft7", import.meta.url));

interface SuiteCase {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}
interface SuiteGroup {
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly SuiteCase[];
}

/**
 * Groups whose schema the validators pass refuses on purpose, with the code it answers. Nothing is skipped: for
 * these the test checks that the refusal happens.
 */
const REFUSED_GROUPS: Readonly<Record<string, string>> = {
  // Needs a remote reference (here the draft-07 meta-schema by URL): precompiled validators are self-contained.
  "definitions.json > validate definition against metaschema": "CAVE6007",
  // Formats ajv-formats does not implement (and the schema wrapper does not accept): refused, never silently ignored.
  "format.json > validation of IDN e-mail addresses": "CAVE6006",
  "format.json > validation of IDN hostnames": "CAVE6006",
  "format.json > validation of IRIs": "CAVE6006",
  "format.json > validation of IRI references": "CAVE6006",
};

/**
 * Single cases of the optional format tests where ajv-formats (full mode) answers differently from the suite. They
 * are not skipped: each is asserted to give the opposite answer, so a change in ajv-formats shows up here.
 */
const FORMAT_GAPS: Readonly<Record<string, string>> = {
  "optional/format/email.json > validation of e-mail addresses > a valid email address with a quoted local part":
    "ajv-formats' email is a practical pattern, not full RFC 5321: quoted local parts are refused",
  "optional/format/email.json > validation of e-mail addresses > a valid e-mail address with a bracketed IP address as the destination":
    "ajv-formats' email does not accept address literals in brackets",
  "optional/format/uri.json > validation of URIs > non-numeric port is invalid":
    "ajv-formats' uri pattern does not check that the port is numeric",
  "optional/format/uri-template.json > format: uri-template > a dotted variable name is valid":
    "ajv-formats' uri-template pattern does not allow dots in variable names",
  "optional/format/uri-template.json > format: uri-template > a delete character in a literal is invalid":
    "ajv-formats' uri-template pattern accepts control characters in literals",
  "optional/format/uri-template.json > format: uri-template > an apostrophe in a literal is valid":
    "ajv-formats' uri-template pattern refuses an apostrophe in a literal",
};

function suiteFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...suiteFiles(path));
    else if (name.endsWith(".json")) out.push(path);
  }
  return out;
}

const files = suiteFiles(SUITE).map((path) => ({
  name: relative(SUITE, path).split("\\").join("/"),
  groups: JSON.parse(readFileSync(path, "utf8")) as SuiteGroup[],
}));
const key = (file: string, group: SuiteGroup) => `${file} > ${group.description}`;

const root = mkdtempSync(join(tmpdir(), "cave-suite-"));
let built: ValidatorsResult;
const byOwner = new Map<string, Diagnostic[]>();
const loaded = new Map<string, Promise<CompiledValidator>>();

beforeAll(async () => {
  const schemas = files.flatMap(({ name, groups }) =>
    groups.map((group) => ({ jsonSchema: group.schema as Record<string, unknown>, owner: key(name, group) })),
  );
  // One call for the whole suite, as a build does for all its tools.
  built = await compileValidators(root, ".cave", schemas);
  for (const diagnostic of built.diagnostics) {
    const owner = diagnostic.message.slice(0, diagnostic.message.indexOf(" schema: "));
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), diagnostic]);
  }
  for (const module of built.validators.values()) {
    mkdirSync(dirname(join(root, module.path)), { recursive: true });
    writeFileSync(join(root, module.path), module.code);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function validatorFor(schema: unknown): Promise<CompiledValidator> {
  const hash = hashJson(schema);
  let found = loaded.get(hash);
  if (!found) {
    const module = built.validators.get(hash);
    if (!module) throw new Error(`no validator for ${hash}`);
    found = loadValidator(root, module.path, module.sha256);
    loaded.set(hash, found);
  }
  return found;
}

test("the vendored suite is there and every listed refusal or gap names a real case", () => {
  expect(files.length).toBeGreaterThanOrEqual(30);
  const all = new Set(files.flatMap(({ name, groups }) => groups.map((group) => key(name, group))));
  for (const listed of Object.keys(REFUSED_GROUPS)) expect(all.has(listed), listed).toBe(true);
  const cases = new Set(
    files.flatMap(({ name, groups }) =>
      groups.flatMap((group) => group.tests.map((t) => `${key(name, group)} > ${t.description}`)),
    ),
  );
  for (const listed of Object.keys(FORMAT_GAPS)) expect(cases.has(listed), listed).toBe(true);
});

for (const { name, groups } of files) {
  describe(name, () => {
    for (const group of groups) {
      const id = key(name, group);
      const refusedWith = REFUSED_GROUPS[id];
      if (refusedWith !== undefined) {
        test(`${group.description}: refused with ${refusedWith}`, () => {
          expect((byOwner.get(id) ?? []).map((d) => d.code)).toEqual([refusedWith]);
        });
        continue;
      }
      test(group.description, async () => {
        expect(byOwner.get(id) ?? []).toEqual([]);
        const validator = await validatorFor(group.schema);
        // Every case is run and every disagreement listed, so one failure does not hide the next.
        const wrong: string[] = [];
        for (const t of group.tests) {
          const gap = FORMAT_GAPS[`${id} > ${t.description}`];
          const expected = gap ? !t.valid : t.valid;
          if (validator.validate(t.data).ok !== expected)
            wrong.push(
              `${t.description}: ${JSON.stringify(t.data)} should be ${expected ? "valid" : "invalid"}${gap ? ` (listed gap: ${gap})` : ""}`,
            );
        }
        expect(wrong).toEqual([]);
      });
    }
  });
}
