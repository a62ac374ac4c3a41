import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson, sha256 } from "../../src/contract/hash.js";
import { error, sortDiagnostics, stripRoot, type Diagnostic, type Location } from "../diagnostics.js";
import type { ValidatorModule, ValidatorsResult } from "../types.js";
import { metaChecker } from "./ajv-options.js";
import { bundleValidators } from "./bundle.js";
import { compileStandalone } from "./compile.js";

export { AJV_OPTIONS, inProcessAjv } from "./ajv-options.js";
export { GENERATED_HEADER } from "./bundle.js";

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

interface Group {
  readonly schema: unknown;
  readonly owners: Set<string>;
}

/**
 * The validators pass: every distinct transparent schema (by the sha256 of its canonical JSON; identical schemas
 * share one module) becomes a precompiled Ajv standalone validator, bundled into self-contained ESM at
 * `<outDir>/validators/<hex>.mjs` whose default export is the validate function. A schema Ajv refuses is a
 * diagnostic naming each owner, never a throw. Nothing is written here: emit writes `code` to `path`.
 */
export async function validators(
  root: string,
  outDir: string,
  schemas: ReadonlyArray<{ jsonSchema: Record<string, unknown>; owner: string; at?: Location }>,
): Promise<ValidatorsResult> {
  const diagnostics: Diagnostic[] = [];
  const groups = new Map<string, Group>();
  const places = new Map<string, Location>();
  for (const { jsonSchema, owner, at } of schemas) {
    if (at) places.set(owner, at);
    let text: string;
    let schema: unknown;
    try {
      text = canonicalJson(jsonSchema);
      schema = JSON.parse(text);
    } catch (thrown) {
      diagnostics.push(error("CAVE6001", `${owner} schema: it is not JSON data (${stripRoot(message(thrown), root)})`, "Build it with schema.* or write plain draft-07 JSON Schema: objects, arrays, strings, finite numbers, booleans and null only.", places.get(owner)));
      continue;
    }
    const hash = sha256(text);
    const group = groups.get(hash) ?? { schema, owners: new Set<string>() };
    group.owners.add(owner);
    groups.set(hash, group);
  }

  const hashes = [...groups.keys()].sort();
  const meta = metaChecker();
  const sources = new Map<string, string>();
  for (const hash of hashes) {
    const group = groups.get(hash)!;
    const compiled = compileStandalone(group.schema, meta);
    if (compiled.ok) sources.set(hexOf(hash), compiled.code);
    else for (const owner of sorted(group.owners)) diagnostics.push(error(compiled.refusal.code, `${owner} schema: ${compiled.refusal.problem}`, compiled.refusal.hint, places.get(owner)));
  }

  const bundled = await bundleValidators(sources);
  const modules = new Map<string, ValidatorModule>();
  const folder = validatorsFolder(root, outDir);
  for (const hash of hashes) {
    const hex = hexOf(hash);
    if (!sources.has(hex)) continue;
    const code = bundled.ok ? bundled.modules.get(hex) : undefined;
    if (code === undefined) {
      const cause = bundled.ok ? "no module was produced" : stripRoot(stripRoot(message(bundled.error), root), PACKAGE_DIR);
      for (const owner of sorted(groups.get(hash)!.owners)) {
        diagnostics.push(error("CAVE6011", `${owner} schema: its validator could not be bundled: ${cause}`, "This is a fault in Cave or its installation, not in the schema: reinstall dependencies (npm ci) and report it if it persists.", places.get(owner)));
      }
      continue;
    }
    modules.set(hash, { schemaSha256: hash, path: `${folder}/${hex}.mjs`, code, sha256: sha256(code) });
  }
  return { diagnostics: sortDiagnostics(diagnostics), validators: modules };
}

function hexOf(hash: string): string {
  return hash.slice("sha256-".length);
}

/** `<outDir>/validators` as a POSIX path relative to the root. */
function validatorsFolder(root: string, outDir: string): string {
  const rel = isAbsolute(outDir) ? relative(root, outDir) : relative(root, resolve(root, outDir));
  const posix = rel.split(sep).join("/");
  return posix === "" ? "validators" : `${posix}/validators`;
}

function sorted(values: Iterable<string>): string[] {
  return [...values].sort();
}

function message(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
