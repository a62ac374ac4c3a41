import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateLockValidator, OUTPUT_FILE, SCHEMA_FILE } from "../scripts/generate-lock-validator.mjs";
import { REPO_ROOT } from "./support/golden.js";

/** The runtime's lock check is compiled ahead from docs/cave.lock.schema.json; these hold the committed module to it. */
describe(`${OUTPUT_FILE}`, () => {
  const committed = readFileSync(join(REPO_ROOT, OUTPUT_FILE), "utf8");

  it(`is what scripts/generate-lock-validator.mjs makes of ${SCHEMA_FILE}, byte for byte (npm run build regenerates it)`, async () => {
    expect(
      committed === (await generateLockValidator()),
      `${OUTPUT_FILE} is out of date: run node scripts/generate-lock-validator.mjs and commit it`,
    ).toBe(true);
  });

  it("says it is generated, and imports nothing: Ajv's runtime helpers are bundled in, its compiler is not", () => {
    expect(
      committed.startsWith(`// DO NOT EDIT: generated from ${SCHEMA_FILE} by scripts/generate-lock-validator.mjs`),
    ).toBe(true);
    // A require or import outside a string (the helpers keep Ajv's own `code = 'require(...)'` note, a string).
    expect(committed).not.toMatch(/^\s*import\s|^[^'"\n]*\b(?:require|import)\(/m);
    expect(committed).toMatch(/^export \{\n {2}header,\n {2}tool\n\};$/m);
  });
});
