import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson, sha256 } from "../../src/contract/hash.js";
import { NO_CACHE, type PassCache } from "../cache/pass-cache.js";
import { error, sortDiagnostics, stripRoot, type Diagnostic, type Location } from "../diagnostics.js";
import type { ValidatorModule, ValidatorsResult } from "../types.js";
import { assembleValidator } from "./assemble.js";
import { canonicalPlan } from "../../runtime/canonical/plan.js";
import { HELPERS, type HelperName } from "./helpers.js";
import { helperSetName, preludeSource } from "./prelude.js";
import type { Refusal } from "./refusal.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** What the validators pass caches: Ajv's code for a schema (by its sha256), and a prelude (by its set of helpers). */
export type ValidatorCacheEntry =
  | { readonly code: string; readonly validateName: string; readonly helpers: readonly HelperName[] }
  | { readonly prelude: string };

export interface ValidatorsOptions {
  /** Ajv's code by schema hash and preludes by helper set, so unchanged schemas are never compiled again. */
  readonly cache?: PassCache<ValidatorCacheEntry>;
}

interface Group {
  readonly schema: unknown;
  readonly owners: Set<string>;
}

type Outcome =
  | { readonly code: string; readonly validateName: string; readonly helpers: readonly HelperName[] }
  | { readonly refusal: Refusal }
  | { readonly fault: string };

/**
 * The validators pass: every distinct transparent schema (by the sha256 of its canonical JSON; identical schemas
 * share one module) becomes a precompiled validator at `<outDir>/validators/<hex>.js`: a function body (assemble.ts)
 * that returns the validate function and `canonical`, the schema's canonical-JSON serializer when its shape is fixed,
 * made of the prelude of the runtime helpers it needs (bundled once per set of helpers), Ajv's code and the
 * serializer. A schema Ajv refuses is a diagnostic naming each owner, never a throw. Nothing is written here:
 * emit writes `code` to `path`. Ajv and esbuild are loaded only when something is not in the cache.
 */
export async function compileValidators(
  root: string,
  outDir: string,
  schemas: ReadonlyArray<{ jsonSchema: Record<string, unknown>; owner: string; at?: Location }>,
  options: ValidatorsOptions = {},
): Promise<ValidatorsResult> {
  const unknown = Object.keys(options).filter((key) => key !== "cache");
  if (unknown.length > 0) throw new TypeError(`compileValidators() does not know the option(s) ${unknown.join(", ")}`);
  const cache = options.cache ?? NO_CACHE;
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
      diagnostics.push(
        error(
          "CAVE6001",
          `${owner} schema: it is not JSON data (${stripRoot(thrownText(thrown), root)})`,
          "Build it with schema.* or write plain draft-07 JSON Schema: objects, arrays, strings, finite numbers, booleans and null only.",
          places.get(owner),
        ),
      );
      continue;
    }
    const hash = sha256(text);
    const group = groups.get(hash) ?? { schema, owners: new Set<string>() };
    group.owners.add(owner);
    groups.set(hash, group);
  }

  const hashes = [...groups.keys()].sort();
  const outcomes = await compileAll(hashes, groups, cache);
  const preludes = await preludesFor(outcomes.values(), cache);

  const modules = new Map<string, ValidatorModule>();
  const folder = validatorsFolder(root, outDir);
  for (const hash of hashes) {
    const owners = sorted(groups.get(hash)!.owners);
    const outcome = outcomes.get(hash)!;
    if ("refusal" in outcome) {
      for (const owner of owners)
        diagnostics.push(
          error(
            outcome.refusal.code,
            `${owner} schema: ${outcome.refusal.problem}`,
            outcome.refusal.hint,
            places.get(owner),
          ),
        );
      continue;
    }
    const module = assemble(outcome, preludes, groups.get(hash)!.schema);
    if ("fault" in module) {
      const cause = stripRoot(stripRoot(thrownText(module.fault), root), PACKAGE_DIR);
      for (const owner of owners) {
        diagnostics.push(
          error(
            "CAVE6011",
            `${owner} schema: its validator could not be bundled: ${cause}`,
            "This is a fault in Cave or its installation, not in the schema: reinstall dependencies (npm ci) and report it if it persists.",
            places.get(owner),
          ),
        );
      }
      continue;
    }
    const { code } = module;
    modules.set(hash, { schemaSha256: hash, path: `${folder}/${hexOf(hash)}.js`, code, sha256: sha256(code) });
  }
  return { diagnostics: sortDiagnostics(diagnostics), validators: modules };
}

/** A validator module from Ajv's code and its prelude, or why there is none. */
function assemble(
  outcome: Exclude<Outcome, { refusal: Refusal }>,
  preludes: ReadonlyMap<string, string | { error: unknown }>,
  schema: unknown,
): { code: string } | { fault: unknown } {
  if ("fault" in outcome) return outcome;
  const prelude = preludes.get(helperSetName(outcome.helpers)) ?? { error: "no prelude was produced" };
  if (typeof prelude !== "string") return { fault: prelude.error };
  return { code: assembleValidator(prelude, outcome, canonicalPlan(schema)) };
}

/** Ajv's code for every schema: from the cache, or compiled (and cached when it compiles). */
async function compileAll(
  hashes: readonly string[],
  groups: ReadonlyMap<string, Group>,
  cache: PassCache<ValidatorCacheEntry>,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const missing: string[] = [];
  for (const hash of hashes) {
    const cached = cache.get(["schema", hash]);
    if (isCompiledEntry(cached)) outcomes.set(hash, cached);
    else missing.push(hash);
  }
  if (missing.length === 0) return outcomes;
  const { compileSchemas } = await import("./parallel.js");
  const compiled = await compileSchemas(missing.map((hash) => groups.get(hash)!.schema));
  for (const [i, hash] of missing.entries()) {
    const result = compiled[i]!;
    if (result.ok) {
      const entry = { code: result.code, validateName: result.validateName, helpers: result.helpers };
      cache.set(["schema", hash], entry);
      outcomes.set(hash, entry);
    } else
      outcomes.set(
        hash,
        "refusal" in result
          ? { refusal: result.refusal }
          : "fault" in result
            ? { fault: result.fault }
            : { fault: `Ajv's code requires ${result.unsupported}, which no prelude provides` },
      );
  }
  return outcomes;
}

/** The prelude of every set of helpers the outcomes need: from the cache, or bundled in one esbuild call. */
async function preludesFor(
  outcomes: Iterable<Outcome>,
  cache: PassCache<ValidatorCacheEntry>,
): Promise<Map<string, string | { error: unknown }>> {
  const sets = new Map<string, readonly HelperName[]>();
  for (const outcome of outcomes) if ("code" in outcome) sets.set(helperSetName(outcome.helpers), outcome.helpers);
  const preludes = new Map<string, string | { error: unknown }>();
  const missing = new Map<string, string>();
  for (const [name, helpers] of sets) {
    if (helpers.length === 0) {
      preludes.set(name, "");
      continue;
    }
    const cached = cache.get(["prelude", name]) as { prelude?: unknown } | undefined;
    if (typeof cached?.prelude === "string") preludes.set(name, cached.prelude);
    else missing.set(name, preludeSource(helpers));
  }
  if (missing.size === 0) return preludes;
  const { bundleValidators } = await import("./bundle.js");
  const bundled = await bundleValidators(missing);
  for (const name of missing.keys()) {
    const prelude = bundled.ok ? bundled.modules.get(name) : undefined;
    if (prelude === undefined) {
      preludes.set(name, { error: bundled.ok ? "no prelude was produced" : bundled.error });
      continue;
    }
    cache.set(["prelude", name], { prelude });
    preludes.set(name, prelude);
  }
  return preludes;
}

/** A cached entry of Ajv's code, in the shape this pass stores (anything else is a miss). */
function isCompiledEntry(entry: unknown): entry is { code: string; validateName: string; helpers: HelperName[] } {
  if (typeof entry !== "object" || entry === null) return false;
  const { code, validateName, helpers } = entry as { code?: unknown; validateName?: unknown; helpers?: unknown };
  return (
    typeof code === "string" &&
    typeof validateName === "string" &&
    Array.isArray(helpers) &&
    helpers.every((name) => typeof name === "string" && Object.hasOwn(HELPERS, name))
  );
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
