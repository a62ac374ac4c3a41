import { canonicalJson } from "../../src/contract/hash.js";

/**
 * Which way a schema change moves the set of values the schema accepts:
 * - narrower: some value accepted before is refused now;
 * - wider: everything accepted before still is, and more;
 * - incompatible: both at once (a type replaced by another);
 * - field-removed / optional-field-added: an object property went away or appeared as optional
 *   (judged per side: a removed input field breaks its callers even when the object is open);
 * - annotation: only text the model reads (description, title, examples...), not validation;
 * - unclassified: anything this comparison does not understand.
 * The caller decides what a direction means for callers (input) or consumers (output).
 */
export type Direction =
  | "narrower"
  | "wider"
  | "incompatible"
  | "field-removed"
  | "optional-field-added"
  | "annotation"
  | "unclassified";

export interface SchemaFinding {
  /** Dotted path of the field ("" for the whole value; "items[]" for array items; "*" for additional properties). */
  readonly path: string;
  readonly direction: Direction;
  /** What changed, in plain words ("maxLength 20 → 10"). */
  readonly what: string;
  readonly before: unknown;
  readonly after: unknown;
  /** For field-removed: whether the field was required, and whether the object is closed now. */
  readonly wasRequired?: boolean;
  readonly closedAfter?: boolean;
}

type Schema = Record<string, unknown>;

/** Keywords that only inform: they do not change which values validate. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "$schema",
  "$id",
  "contentEncoding",
  "contentMediaType",
]);
/** Lower bounds: a higher value accepts less. */
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"]);
/** Upper bounds: a lower value accepts less. */
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"]);
/** Keywords that restrict when present and whose changed values cannot be compared (a regex against a regex). */
const RESTRICTIONS = new Set(["pattern", "format"]);
/** Handled together with `properties`. */
const OBJECT_KEYS = new Set(["properties", "required", "additionalProperties"]);

/** The findings between two JSON Schemas (draft-07), in a stable order; [] when they validate the same values. */
export function compareSchemas(before: unknown, after: unknown, path = ""): SchemaFinding[] {
  if (same(before, after)) return [];
  if (typeof before === "boolean" || typeof after === "boolean" || !isSchema(before) || !isSchema(after)) {
    const b = before === true || (isSchema(before) && Object.keys(before).length === 0);
    const a = after === true || (isSchema(after) && Object.keys(after).length === 0);
    if (b && isSchema(after))
      return [{ path, direction: "narrower", what: "constrained (was: any value)", before, after }];
    if (a && isSchema(before))
      return [{ path, direction: "wider", what: "unconstrained now (any value)", before, after }];
    return [{ path, direction: "unclassified", what: "schema replaced", before, after }];
  }
  // A union narrowed to one of its options (or one schema widened into a union holding it): TypeBox and
  // zod write a single-option union as that option, so this is how "remove all but one value" looks.
  if (Array.isArray(before.anyOf) && after.anyOf === undefined && before.anyOf.some((o) => same(o, after))) {
    return [
      {
        path,
        direction: "narrower",
        what: `anyOf: only ${optionLabel(after)} is left (removed ${listOptions(before.anyOf.filter((o) => !same(o, after)))})`,
        before,
        after,
      },
    ];
  }
  if (Array.isArray(after.anyOf) && before.anyOf === undefined && after.anyOf.some((o) => same(o, before))) {
    return [
      {
        path,
        direction: "wider",
        what: `anyOf: ${listOptions(after.anyOf.filter((o) => !same(o, before)))} added to ${optionLabel(before)}`,
        before,
        after,
      },
    ];
  }
  const type = compareTypes(before.type, after.type);
  if (type === "incompatible")
    return [
      {
        path,
        direction: "incompatible",
        what: `type ${describeType(before.type)} → ${describeType(after.type)}`,
        before: before.type ?? null,
        after: after.type ?? null,
      },
    ];

  const findings: SchemaFinding[] = [];
  if (type !== "same")
    findings.push({
      path,
      direction: type,
      what: `type ${describeType(before.type)} → ${describeType(after.type)}`,
      before: before.type ?? null,
      after: after.type ?? null,
    });
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const key of keys) {
    if (key === "type" || OBJECT_KEYS.has(key) || same(before[key], after[key])) continue;
    findings.push(...compareKeyword(key, before[key], after[key], path));
  }
  if ([...OBJECT_KEYS].some((key) => !same(before[key], after[key])))
    findings.push(...compareObjects(before, after, path));
  return findings;
}

function compareKeyword(key: string, b: unknown, a: unknown, path: string): SchemaFinding[] {
  const at = (direction: Direction, what: string): SchemaFinding[] => [
    { path, direction, what, before: b ?? null, after: a ?? null },
  ];
  if (ANNOTATIONS.has(key))
    return at("annotation", `${key} ${b === undefined ? "added" : a === undefined ? "removed" : "changed"}`);
  if (LOWER_BOUNDS.has(key) || UPPER_BOUNDS.has(key)) {
    if (!isNumberOrAbsent(b) || !isNumberOrAbsent(a)) return at("unclassified", `${key} ${show(b)} → ${show(a)}`);
    const lower = LOWER_BOUNDS.has(key);
    if (b === undefined) return at("narrower", `${key} ${show(a)} added`);
    if (a === undefined) return at("wider", `${key} ${show(b)} removed`);
    const tighter = lower ? (a as number) > (b as number) : (a as number) < (b as number);
    return at(tighter ? "narrower" : "wider", `${key} ${show(b)} → ${show(a)} (${tighter ? "tighter" : "looser"})`);
  }
  if (key === "multipleOf") {
    if (b === undefined) return at("narrower", `multipleOf ${show(a)} added`);
    if (a === undefined) return at("wider", `multipleOf ${show(b)} removed`);
    if (typeof a === "number" && typeof b === "number") {
      if (Number.isInteger(a / b)) return at("narrower", `multipleOf ${b} → ${a} (tighter)`);
      if (Number.isInteger(b / a)) return at("wider", `multipleOf ${b} → ${a} (looser)`);
      return at("incompatible", `multipleOf ${b} → ${a}`);
    }
    return at("unclassified", `multipleOf ${show(b)} → ${show(a)}`);
  }
  if (RESTRICTIONS.has(key)) {
    if (b === undefined) return at("narrower", `${key} ${show(a)} added`);
    if (a === undefined) return at("wider", `${key} ${show(b)} removed`);
    return at("unclassified", `${key} ${show(b)} → ${show(a)}`);
  }
  if (key === "uniqueItems") {
    if (a === true && b !== true) return at("narrower", "items must now be unique");
    if (b === true && a !== true) return at("wider", "items no longer need to be unique");
    return [];
  }
  if (key === "enum") return compareValueSets("enum", b, a, path);
  if (key === "const") {
    if (b === undefined) return at("narrower", `const ${show(a)} added`);
    if (a === undefined) return at("wider", `const ${show(b)} removed`);
    return at("incompatible", `const ${show(b)} → ${show(a)}`);
  }
  if (key === "items") {
    const itemsPath = `${path}[]`;
    if (b === undefined && isSchemaOrBoolean(a))
      return [
        { path: itemsPath, direction: "narrower", what: "items constrained (was: any value)", before: null, after: a },
      ];
    if (a === undefined && isSchemaOrBoolean(b))
      return [
        { path: itemsPath, direction: "wider", what: "items unconstrained now (any value)", before: b, after: null },
      ];
    if (isSchemaOrBoolean(b) && isSchemaOrBoolean(a)) return compareSchemas(b, a, itemsPath);
    return at("unclassified", "tuple items changed");
  }
  if (key === "anyOf") return compareUnion(b, a, path);
  return at("unclassified", `${key} ${b === undefined ? "added" : a === undefined ? "removed" : "changed"}`);
}

/** enum as a set of values: fewer accepts less. */
function compareValueSets(key: string, b: unknown, a: unknown, path: string): SchemaFinding[] {
  const at = (direction: Direction, what: string): SchemaFinding[] => [
    { path, direction, what, before: b ?? null, after: a ?? null },
  ];
  if (b === undefined) return at("narrower", `${key} ${show(a)} added`);
  if (a === undefined) return at("wider", `${key} ${show(b)} removed`);
  if (!Array.isArray(b) || !Array.isArray(a)) return at("unclassified", `${key} changed`);
  const before = new Map(b.map((v) => [canonicalJson(v), v]));
  const after = new Map(a.map((v) => [canonicalJson(v), v]));
  const removed = [...before.keys()].filter((k) => !after.has(k)).sort();
  const added = [...after.keys()].filter((k) => !before.has(k)).sort();
  const parts = [
    ...(removed.length ? [`removed ${removed.join(", ")}`] : []),
    ...(added.length ? [`added ${added.join(", ")}`] : []),
  ];
  const what = `${key}: ${parts.join("; ")}`;
  if (removed.length && added.length) return at("incompatible", what);
  return at(removed.length ? "narrower" : "wider", what);
}

/** anyOf as a set of branches: a dropped branch accepts less, a new one more; anything else is unclassified. */
function compareUnion(b: unknown, a: unknown, path: string): SchemaFinding[] {
  const at = (direction: Direction, what: string): SchemaFinding[] => [
    { path, direction, what, before: b ?? null, after: a ?? null },
  ];
  if (!Array.isArray(b) || !Array.isArray(a))
    return at("unclassified", `anyOf ${b === undefined ? "added" : a === undefined ? "removed" : "changed"}`);
  const removed = b.filter((o) => !a.some((n) => same(n, o)));
  const added = a.filter((n) => !b.some((o) => same(n, o)));
  if (removed.length > 0 && added.length === 0) return at("narrower", `anyOf: removed ${listOptions(removed)}`);
  if (added.length > 0 && removed.length === 0) return at("wider", `anyOf: added ${listOptions(added)}`);
  return at("unclassified", `anyOf: ${listOptions(removed)} replaced by ${listOptions(added)}`);
}

/** A union option in a few words: its const value, else its type, else "a schema". */
function optionLabel(option: unknown): string {
  if (isSchema(option)) {
    if (option.const !== undefined) return JSON.stringify(option.const);
    if (option.type !== undefined) return `a ${describeType(option.type)}`;
  }
  return "a schema";
}

function listOptions(options: readonly unknown[]): string {
  const labels = options.map(optionLabel);
  return labels.length === 1 ? `option ${labels[0]}` : `options ${labels.join(", ")}`;
}

/** properties, required and additionalProperties together: a field's fate depends on all three. */
function compareObjects(before: Schema, after: Schema, path: string): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const props = (s: Schema) => (isSchema(s.properties) ? s.properties : {});
  const required = (s: Schema) =>
    new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
  const pb = props(before);
  const pa = props(after);
  const rb = required(before);
  const ra = required(after);
  const closedAfter = after.additionalProperties === false;
  const names = [...new Set([...Object.keys(pb), ...Object.keys(pa), ...rb, ...ra])].sort();
  for (const name of names) {
    const at = path === "" ? name : `${path}.${name}`;
    const inBefore = Object.hasOwn(pb, name) || rb.has(name);
    const inAfter = Object.hasOwn(pa, name) || ra.has(name);
    if (inBefore && !inAfter) {
      findings.push({
        path: at,
        direction: "field-removed",
        what: `${rb.has(name) ? "required" : "optional"} field removed`,
        before: pb[name] ?? null,
        after: null,
        wasRequired: rb.has(name),
        closedAfter,
      });
      continue;
    }
    if (!inBefore && inAfter) {
      if (ra.has(name))
        findings.push({
          path: at,
          direction: "narrower",
          what: "new required field",
          before: null,
          after: pa[name] ?? null,
        });
      else
        findings.push({
          path: at,
          direction: "optional-field-added",
          what: "new optional field",
          before: null,
          after: pa[name] ?? null,
        });
      continue;
    }
    if (rb.has(name) && !ra.has(name))
      findings.push({ path: at, direction: "wider", what: "no longer required", before: true, after: false });
    if (!rb.has(name) && ra.has(name))
      findings.push({ path: at, direction: "narrower", what: "now required", before: false, after: true });
    findings.push(...compareSchemas(pb[name] ?? true, pa[name] ?? true, at));
  }
  findings.push(...compareAdditional(before.additionalProperties, after.additionalProperties, path));
  return findings;
}

/** additionalProperties: absent and true accept any extra key, false none, a schema the keys it accepts. */
function compareAdditional(b: unknown, a: unknown, path: string): SchemaFinding[] {
  const open = (v: unknown) => v === undefined || v === true;
  if (open(b) && open(a)) return [];
  if (same(b, a)) return [];
  const at = (direction: Direction, what: string): SchemaFinding[] => [
    { path, direction, what, before: b ?? null, after: a ?? null },
  ];
  if (a === false) return at("narrower", "object closed: unknown keys are refused now (additionalProperties: false)");
  if (b === false) return at("wider", "object opened: unknown keys are accepted now");
  if (open(b) && isSchema(a)) return at("narrower", "additional properties constrained");
  if (isSchema(b) && open(a)) return at("wider", "additional properties unconstrained now");
  if (isSchema(b) && isSchema(a)) return compareSchemas(b, a, path === "" ? "*" : `${path}.*`);
  return at("unclassified", "additionalProperties changed");
}

type TypeComparison = "same" | "narrower" | "wider" | "incompatible";

/** Types as sets, with integer inside number; an absent type accepts every type. */
function compareTypes(b: unknown, a: unknown): TypeComparison {
  const tb = typeSet(b);
  const ta = typeSet(a);
  if (tb === "invalid" || ta === "invalid") return same(b, a) ? "same" : "incompatible";
  const within = (inner: Set<string> | null, outer: Set<string> | null) =>
    outer === null ||
    (inner !== null && [...inner].every((t) => outer.has(t) || (t === "integer" && outer.has("number"))));
  const narrower = within(ta, tb);
  const wider = within(tb, ta);
  if (narrower && wider) return "same";
  if (narrower) return "narrower";
  if (wider) return "wider";
  return "incompatible";
}

function typeSet(t: unknown): Set<string> | null | "invalid" {
  if (t === undefined) return null;
  if (typeof t === "string") return new Set([t]);
  if (Array.isArray(t) && t.every((x) => typeof x === "string")) return new Set(t as string[]);
  return "invalid";
}

function describeType(t: unknown): string {
  if (t === undefined) return "any";
  if (Array.isArray(t)) return t.join(" | ");
  return String(t);
}

function show(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}

function isNumberOrAbsent(value: unknown): boolean {
  return value === undefined || (typeof value === "number" && Number.isFinite(value));
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSchemaOrBoolean(value: unknown): value is Schema | boolean {
  return typeof value === "boolean" || isSchema(value);
}

function same(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
