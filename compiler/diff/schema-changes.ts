import type { LockedSchema } from "../../src/contract/lock.js";
import { compareSchemas, type Direction, type SchemaFinding } from "./schema.js";
import type { Impact, LockChange } from "./types.js";

type Side = "input" | "output";

/**
 * Input is judged from the caller's side (a value that was accepted and now is not breaks a caller),
 * output from the consumer's side (a value that could not occur and now can breaks a consumer).
 */
function impactOf(side: Side, finding: SchemaFinding): Impact {
  const table: Record<Direction, Impact> =
    side === "input"
      ? {
          narrower: "breaking",
          wider: "compatible",
          incompatible: "breaking",
          "field-removed": "breaking",
          "optional-field-added": "compatible",
          annotation: "info",
          unclassified: "unclassified",
        }
      : {
          narrower: "compatible",
          wider: "breaking",
          incompatible: "breaking",
          "field-removed": "breaking",
          "optional-field-added": "compatible",
          annotation: "info",
          unclassified: "unclassified",
        };
  // A consumer never relied on an optional field being there; in a closed object it cannot be anything else now either.
  if (side === "output" && finding.direction === "field-removed" && !finding.wasRequired && finding.closedAfter)
    return "compatible";
  return table[finding.direction];
}

const CONSEQUENCE: Record<Side, Partial<Record<Impact, string>>> = {
  input: {
    breaking: "breaking for callers",
    compatible: "compatible for callers",
    unclassified: "cannot tell whether callers break",
  },
  output: {
    breaking: "breaking for consumers of the result",
    compatible: "compatible for consumers of the result",
    unclassified: "cannot tell whether consumers break",
  },
};

/** Every change to one side of a tool: its JSON Schema (classified), its validation (precompiled or opaque). */
export function schemaSideChanges(
  tool: string,
  side: Side,
  before: LockedSchema | null,
  after: LockedSchema | null,
): LockChange[] {
  const kind = side === "input" ? "input-schema" : "output-schema";
  const change = (
    impact: Impact,
    path: string | null,
    message: string,
    b: unknown,
    a: unknown,
    details: string[] = [],
  ): LockChange => ({
    kind,
    impact,
    subject: { type: "tool", name: tool },
    path,
    message,
    details,
    before: b ?? null,
    after: a ?? null,
  });
  if (before === null && after === null) return [];
  if (before === null || after === null) {
    // No schema means any value; adding one constrains, removing one frees.
    const finding: SchemaFinding = {
      path: "",
      direction: before === null ? "narrower" : "wider",
      what:
        before === null ? "schema added (was: any value, unvalidated)" : "schema removed (any value, unvalidated now)",
      before: null,
      after: null,
    };
    const impact = impactOf(side, finding);
    return [
      change(
        impact,
        "",
        `${side} ${finding.what}: ${CONSEQUENCE[side][impact]}`,
        before?.jsonSchema,
        after?.jsonSchema,
      ),
    ];
  }
  const out: LockChange[] = [];
  if (before.sha256 !== after.sha256) {
    if (before.jsonSchema === null || after.jsonSchema === null) {
      out.push(
        change(
          "unclassified",
          "",
          `${side} JSON Schema ${before.jsonSchema === null ? "appeared" : "disappeared"} (the validator gives none): ${CONSEQUENCE[side].unclassified}`,
          before.jsonSchema,
          after.jsonSchema,
        ),
      );
    } else {
      const findings = compareSchemas(before.jsonSchema, after.jsonSchema).sort((x, y) =>
        x.path < y.path ? -1 : x.path > y.path ? 1 : 0,
      );
      for (const finding of findings) {
        const impact = impactOf(side, finding);
        const where = finding.path === "" ? side : `${side} field ${JSON.stringify(finding.path)}`;
        const consequence = CONSEQUENCE[side][impact];
        out.push(
          change(
            impact,
            finding.path,
            `${where}: ${finding.what}${consequence ? `: ${consequence}` : ""}`,
            finding.before,
            finding.after,
          ),
        );
      }
      if (findings.length === 0)
        out.push(
          change(
            "info",
            "",
            `${side} JSON Schema rewritten without changing what it accepts`,
            before.sha256,
            after.sha256,
          ),
        );
    }
  }
  out.push(...validationChanges(tool, side, before, after));
  return out;
}

function validationChanges(tool: string, side: Side, before: LockedSchema, after: LockedSchema): LockChange[] {
  const b = before.validation;
  const a = after.validation;
  const subject = { type: "tool" as const, name: tool };
  const kind = side === "input" ? "input-validation" : "output-validation";
  if (b.kind === "opaque" && a.kind === "opaque") {
    const out: LockChange[] = [];
    if (b.vendor !== a.vendor) {
      out.push({
        kind,
        impact: "unclassified",
        subject,
        path: null,
        message: `${side} is validated by ${a.vendor} instead of ${b.vendor}: review what it accepts now`,
        details: [],
        before: b.vendor,
        after: a.vendor,
      });
    }
    if (b.semanticsSHA256 !== a.semanticsSHA256) {
      out.push({
        kind: "opaque-semantics",
        impact: "unclassified",
        subject,
        path: null,
        message: `${side} validator (${a.vendor}) semantics changed (schemaSemanticsSHA256 ${b.semanticsSHA256.slice(0, 12)}… → ${a.semanticsSHA256.slice(0, 12)}…): its code is opaque, review what it accepts now`,
        details: [],
        before: b.semanticsSHA256,
        after: a.semanticsSHA256,
      });
    }
    return out;
  }
  if (b.kind === "precompiled" && a.kind === "precompiled") {
    // With the same schema, a new validator module means the validator generator changed, not the contract.
    if (before.sha256 === after.sha256 && (b.sha256 !== a.sha256 || b.module !== a.module)) {
      return [
        {
          kind,
          impact: "info",
          subject,
          path: null,
          message: `${side} validator regenerated for the same schema (${a.module})`,
          details: [],
          before: b,
          after: a,
        },
      ];
    }
    return [];
  }
  const how = (v: typeof a) =>
    v.kind === "precompiled" ? "a precompiled validator" : `${v.vendor} (opaque, from the staged bundle)`;
  const impact: Impact = a.kind === "opaque" ? "unclassified" : "info";
  return [
    {
      kind,
      impact,
      subject,
      path: null,
      message: `${side} is validated by ${how(a)} instead of ${how(b)}`,
      details: [],
      before: b,
      after: a,
    },
  ];
}
