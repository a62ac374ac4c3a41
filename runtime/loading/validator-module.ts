import { closeSync, openSync, readSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { compileFunction } from "node:vm";
import { sha256 } from "../../src/contract/hash.js";
import { RuntimeError } from "../errors.js";
import type { CanonicalSerializer } from "../pipeline/json-data.js";
import { interpretedSerializer } from "../canonical/interpret.js";
import { canonicalPlan, type CanonicalPlan } from "../canonical/plan.js";
import { planFromText } from "../canonical/plan-text.js";

/** One reason a value failed its schema: where (a JSON Pointer into the value, "" for the value itself) and what. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

export type ValidationResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

export interface CompiledValidator {
  validate(value: unknown): ValidationResult;
  /** The schema's build-time canonical-JSON serializer, when its shape is fixed (compiler/validators/canonical.ts). */
  readonly canonical: CanonicalSerializer | undefined;
}

/** The part of an Ajv error object the runtime reads (the generated code carries no Ajv types). */
export interface AjvErrorLike {
  readonly instancePath?: string;
  readonly keyword?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

type ValidateFunction = ((value: unknown) => boolean) & { errors?: readonly AjvErrorLike[] | null };

/**
 * The line that starts Ajv's part of a validator whose schema has a serializer (compiler/validators/assemble.ts): the
 * text before it is the serializer's function body, the text from it on Ajv's. Neither part's code can hold it: every
 * string in them is quoted by Ajv's code generator, which escapes line breaks.
 */
export const AJV_PART_LINE = "// Ajv's part: compiled when a value first needs it.";

/**
 * How the second line of a validator with a serializer starts: the rest of that line is the schema's plan
 * (runtime/canonical/plan-text.ts), one line of JSON the serializer's body holds as a comment.
 */
export const PLAN_LINE = "// Plan: ";

/**
 * Loads a precompiled validator exactly as locked: reads `path` (relative to `root`), checks its sha256 against the
 * lock, then compiles those same verified bytes (compileValidatorBody), so nothing can be swapped in between: there is
 * no file to import and no module loader (docs/decisions.md, "Validators compiled in memory from the verified bytes").
 * Throws RuntimeError LOCK_MISMATCH (naming the file relative to the root) when the file is missing, differs from the
 * lock, or is not a validator; LOCK_INVALID when the path leaves the project.
 */
export async function loadValidator(root: string, path: string, expectedSha256: string): Promise<CompiledValidator> {
  const absolute = validatorPath(root, path);
  return validatorOf(
    compileParts(readValidator(absolute, path, expectedSha256, false), absolute, path, expectedSha256),
  );
}

/**
 * How many walks a validator's interpreted walk makes before its emitted walk is compiled: past this, a tool is
 * called often enough for V8's compiling of the emitted walk (~0.4 ms for the benchmark's schema) to pay off against
 * the interpreter's extra ~10 us a walk (docs/decisions.md, "Validators tier up").
 */
export const TIER_UP_WALKS = 16;

/**
 * A precompiled validator that starts interpreted: the file is read and verified against the lock now, as
 * loadValidator does, but nothing of it is compiled. Values are walked by the schema's plan, interpreted from the
 * locked schema (`jsonSchema`, from the verified lock entry: the schema the validator was built from); the
 * TIER_UP_WALKS-th walk compiles the emitted walk from the file read and verified again, and later walks take it. A
 * value the walk does not call valid goes to Ajv's part, compiled then (from the file read and verified again).
 * A schema without a plan, or a file without a serializer, is compiled now, as loadValidator does.
 */
export function loadTieredValidator(
  root: string,
  path: string,
  expectedSha256: string,
  jsonSchema: unknown,
): CompiledValidator {
  const absolute = validatorPath(root, path);
  const bytes = readValidator(absolute, path, expectedSha256, false);
  const interpreted = bytes.includes(AJV_PART_BYTES)
    ? interpretedOf(planLine(bytes) ?? canonicalPlan(jsonSchema))
    : undefined;
  if (interpreted === undefined) return validatorOf(compileParts(bytes, absolute, path, expectedSha256));
  return new TieredValidator(interpreted, () =>
    compileParts(readValidator(absolute, path, expectedSha256, true), absolute, path, expectedSha256),
  );
}

/**
 * The plan the build wrote on the validator's second line (PLAN_LINE), from the verified bytes, or undefined when
 * there is none (a validator built before plans were written) or it does not parse: the plan is then worked out from
 * the locked schema, as the build did.
 */
function planLine(bytes: Buffer): CanonicalPlan | undefined {
  const start = bytes.indexOf(LINE_FEED) + 1;
  const prefixEnd = start + PLAN_LINE_BYTES.length;
  if (
    start === 0 ||
    prefixEnd > bytes.length ||
    bytes.compare(PLAN_LINE_BYTES, 0, PLAN_LINE_BYTES.length, start, prefixEnd) !== 0
  )
    return undefined;
  const end = bytes.indexOf(LINE_FEED, start);
  if (end < 0) return undefined;
  try {
    return planFromText(bytes.toString("utf8", prefixEnd, end));
  } catch {
    return undefined;
  }
}

/** The interpreted walk of a plan, or undefined when there is none or it has a pattern that does not compile here. */
function interpretedOf(plan: CanonicalPlan | undefined): CanonicalSerializer | undefined {
  if (plan === undefined) return undefined;
  try {
    return interpretedSerializer(plan);
  } catch {
    return undefined;
  }
}

class TieredValidator implements CompiledValidator {
  canonical: CanonicalSerializer;
  #walks = 0;
  #compiled: CompiledParts | undefined;
  readonly #compile: () => CompiledParts;

  constructor(interpreted: CanonicalSerializer, compile: () => CompiledParts) {
    this.#compile = compile;
    this.canonical = (value, maxBytes) => {
      if (++this.#walks === TIER_UP_WALKS) this.#tierUp();
      return interpreted(value, maxBytes);
    };
  }

  validate(value: unknown): ValidationResult {
    // The walk of the current tier, once; Ajv's part only for a value it does not call valid.
    return decide(value, this.canonical, () => this.#compiledNow().ajv());
  }

  #tierUp(): void {
    try {
      this.canonical = this.#compiledNow().canonical ?? this.canonical;
    } catch {
      // The file changed or went since it was verified: the interpreted walk, made from the verified lock entry,
      // goes on answering; a value that needs Ajv reports the file's LOCK_MISMATCH.
    }
  }

  #compiledNow(): CompiledParts {
    return (this.#compiled ??= this.#compile());
  }
}

/** Where a validator the lock names is, refused (LOCK_INVALID) when the path leaves the project. */
function validatorPath(root: string, path: string): string {
  if (isAbsolute(path) || path.split(/[\\/]/).includes("..")) {
    throw new RuntimeError(
      "LOCK_INVALID",
      `cave.lock names the validator module ${JSON.stringify(path)}, which is not a path inside the project. Rebuild with cave build; never edit cave.lock by hand.`,
    );
  }
  return resolve(root, path);
}

/**
 * The validator's bytes, verified against the lock (valid until the next read: readIntoShared), or LOCK_MISMATCH:
 * `again` when this runtime verified the file before, which a changed or missing file then contradicts.
 */
function readValidator(absolute: string, path: string, expectedSha256: string, again: boolean): Buffer {
  let bytes: Buffer;
  try {
    bytes = readIntoShared(absolute);
  } catch (thrown) {
    const code = (thrown as NodeJS.ErrnoException).code ?? "error";
    throw new RuntimeError(
      "LOCK_MISMATCH",
      again
        ? `validator module ${path} can no longer be read (${code}) since this runtime loaded it. Restart the runtime on the build folder its cave.lock was built with.`
        : `validator module ${path} ${code === "ENOENT" ? "is missing" : `cannot be read (${code})`}. Rebuild with cave build and deploy cave.lock together with its build folder.`,
    );
  }
  const actual = sha256(bytes);
  if (actual !== expectedSha256)
    throw new RuntimeError(
      "LOCK_MISMATCH",
      again
        ? `validator module ${path} changed in the build folder after this runtime loaded it (locked ${expectedSha256}, found ${actual}). Restart the runtime on the build folder its cave.lock was built with.`
        : `validator module ${path} does not match cave.lock (locked ${expectedSha256}, found ${actual}). Rebuild with cave build and deploy cave.lock together with its build folder.`,
    );
  return bytes;
}

/** A compiled validator's two parts: its emitted walk, and Ajv's validate function (compiled on the first call when it is not yet: it may throw then). */
interface CompiledParts {
  readonly canonical: CanonicalSerializer | undefined;
  readonly ajv: () => ValidateFunction;
}

/** Compiles verified validator bytes: the serializer's part now, Ajv's part when a value first needs it. */
function compileParts(bytes: Buffer, absolute: string, path: string, expectedSha256: string): CompiledParts {
  const unloadable = (thrown: unknown): RuntimeError =>
    new RuntimeError(
      "LOCK_MISMATCH",
      `validator module ${path} matches cave.lock but cannot be loaded (${thrown instanceof Error ? thrown.name : "error"}). Rebuild with cave build.`,
    );
  const noValidate = (): RuntimeError =>
    new RuntimeError(
      "LOCK_MISMATCH",
      `validator module ${path} does not export a validate function. Rebuild with cave build.`,
    );
  const { serializer, ajvAt } = validatorParts(bytes);
  let made: { validate?: unknown; canonical?: unknown } | null;
  try {
    made = compileFunction(serializer, [], { filename: path })() as typeof made;
  } catch (thrown) {
    throw unloadable(thrown);
  }
  const canonical = typeof made?.canonical === "function" ? (made.canonical as CanonicalSerializer) : undefined;
  if (ajvAt === undefined) {
    if (typeof made?.validate !== "function") throw noValidate();
    const validate = made.validate as ValidateFunction;
    return { canonical, ajv: () => validate };
  }
  if (canonical === undefined) throw noValidate();
  // Ajv's part is compiled when a value first needs it, from the file read again and verified again: nothing of it is
  // kept until then (docs/decisions.md, "Ajv's part of a validator is read again when first needed"). A file that
  // changed since (a build folder replaced under a running runtime) is refused, and what it holds never runs.
  let validate: ValidateFunction | undefined;
  const ajv = (): ValidateFunction => {
    if (validate === undefined) {
      const again = readValidator(absolute, path, expectedSha256, true);
      let part: { validate?: unknown } | null;
      try {
        part = compileFunction(again.toString("utf8", ajvAt), [], {
          filename: path,
          lineOffset: linesBefore(again, ajvAt),
        })() as typeof part;
      } catch (thrown) {
        throw unloadable(thrown);
      }
      if (typeof part?.validate !== "function") throw noValidate();
      validate = part.validate as ValidateFunction;
    }
    return validate;
  };
  return { canonical, ajv };
}

const AJV_PART_BYTES = Buffer.from(`\n${AJV_PART_LINE}\n`);
const PLAN_LINE_BYTES = Buffer.from(PLAN_LINE);
const LINE_FEED = 0x0a;

/**
 * A validator's bytes as its serializer's body, decoded, and where Ajv's part starts (`ajvAt`, a byte offset), or whole.
 * Ajv's part, about three quarters of the bytes, is decoded only when it is compiled: most validators never need it.
 */
function validatorParts(bytes: Buffer): { serializer: string; ajvAt?: number } {
  const at = bytes.indexOf(AJV_PART_BYTES);
  if (at < 0) return { serializer: bytes.toString("utf8") };
  return { serializer: bytes.toString("utf8", 0, at + 1), ajvAt: at + 1 };
}

/** How many lines come before byte `at` (a line feed byte is never part of a longer UTF-8 sequence): Ajv's part's first line, 0-based. */
function linesBefore(bytes: Buffer, at: number): number {
  let lines = 0;
  for (let i = bytes.indexOf(LINE_FEED); i >= 0 && i < at; i = bytes.indexOf(LINE_FEED, i + 1)) lines++;
  return lines;
}

/**
 * One buffer every validator file is read into, grown as needed. A validator is read, hashed and decoded before the
 * next read, all synchronously: a fresh buffer per file (readFileSync) made the read ~3x dearer (1,001 validators:
 * ~200 ms against ~65 ms of CPU, most of it the fresh memory's first touch).
 */
let shared = Buffer.allocUnsafe(64 * 1024);

/** The whole file at `absolutePath`, in `shared`: valid until the next read. */
function readIntoShared(absolutePath: string): Buffer {
  const fd = openSync(absolutePath, "r");
  try {
    let length = 0;
    for (;;) {
      if (length === shared.length) {
        const grown = Buffer.allocUnsafe(shared.length * 2);
        shared.copy(grown, 0, 0, length);
        shared = grown;
      }
      const read = readSync(fd, shared, length, shared.length - length, null);
      if (read === 0) return shared.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Compiles a validator's text (compiler/validators/assemble.ts: a function body returning `{ validate, canonical }`,
 * or two, the serializer's and then Ajv's) in this realm, both parts now, and runs it once. `filename` names it in
 * stacks. Throws what compiling or running it throws.
 */
export function compileValidatorBody(
  text: string,
  filename: string,
): { validate?: unknown; canonical?: unknown } | null {
  const bytes = Buffer.from(text, "utf8");
  const { serializer, ajvAt } = validatorParts(bytes);
  const made = compileFunction(serializer, [], { filename })() as { validate?: unknown; canonical?: unknown } | null;
  if (ajvAt === undefined) return made;
  const ajv = bytes.toString("utf8", ajvAt);
  const part = compileFunction(ajv, [], { filename, lineOffset: linesBefore(bytes, ajvAt) })() as {
    validate?: unknown;
  } | null;
  return { canonical: made?.canonical, validate: part?.validate };
}

/** Every valid value's answer: one frozen object, not one per call. */
const VALID: ValidationResult = Object.freeze({ ok: true });

function validatorOf(parts: CompiledParts): CompiledValidator {
  const { canonical, ajv } = parts;
  return { canonical, validate: (value) => decide(value, canonical, ajv) };
}

/** A value's verdict: the schema's walk, then Ajv's part for a value the walk does not call valid. */
function decide(
  value: unknown,
  canonical: CanonicalSerializer | undefined,
  ajv: () => ValidateFunction,
): ValidationResult {
  // The schema's walk accepts most valid values on its own (it checks the keywords it can decide as Ajv does,
  // runtime/canonical/plan.ts), so a tool whose calls are valid never runs Ajv's code, which V8 then never compiles.
  // The pipeline validates its own detached copies, read once; the walk reads each property once too, so the two
  // decide on the same data.
  if (canonical?.(value, Number.MAX_SAFE_INTEGER)?.valid === true) return VALID;
  // A part that cannot be compiled, or whose file changed since it was verified, throws its RuntimeError
  // (LOCK_MISMATCH) to the caller.
  const fn = ajv();
  let valid: boolean;
  try {
    valid = fn(value) === true;
  } catch (thrown) {
    // Only reachable with values JSON cannot produce (a throwing getter, a revoked Proxy). The thrown message
    // is not repeated: it could quote the value.
    return {
      ok: false,
      issues: [
        {
          path: "",
          message: `could not be validated (the validator threw ${thrown instanceof Error ? thrown.name : typeof thrown})`,
        },
      ],
    };
  }
  if (valid) return VALID;
  const issues = issuesFromAjvErrors(fn.errors ?? []);
  return { ok: false, issues: issues.length > 0 ? issues : [{ path: "", message: "does not match the schema" }] };
}

/**
 * Ajv errors as issues. The path points at the failing value: for a missing required property and for a property
 * a closed object does not allow, at that property. Messages name schema values only, never the data.
 */
export function issuesFromAjvErrors(errors: readonly AjvErrorLike[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const issue = issueOf(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

function issueOf(error: AjvErrorLike): ValidationIssue {
  const path = error.instancePath ?? "";
  const params = error.params ?? {};
  switch (error.keyword) {
    case "required":
      if (typeof params.missingProperty === "string")
        return { path: `${path}/${escapeToken(params.missingProperty)}`, message: "is required" };
      break;
    case "additionalProperties":
      if (typeof params.additionalProperty === "string")
        return {
          path: `${path}/${escapeToken(params.additionalProperty)}`,
          message: "is not an allowed property (the object is closed)",
        };
      break;
    case "const":
      return { path, message: `must be ${shortJson(params.allowedValue)}` };
    case "enum":
      if (Array.isArray(params.allowedValues))
        return {
          path,
          message: `must be one of ${params.allowedValues.slice(0, 10).map(shortJson).join(", ")}${params.allowedValues.length > 10 ? ", ..." : ""}`,
        };
      break;
  }
  return { path, message: error.message ?? `fails ${error.keyword ?? "the schema"}` };
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
