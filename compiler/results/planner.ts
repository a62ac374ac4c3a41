import type { ArtifactOptions, RequestedResult, ResultPlan, SizeBound } from "../../src/contract/lock.js";
import {
  DEFAULT_PAGE_TOKENS,
  EXACT_CCR_INLINE_TOKENS,
  INLINE_CAP_TOKENS,
  MIN_PAGE_TOKENS,
  viewTokens,
} from "../../src/contract/results/constants.js";
import { TOKENIZER } from "../../src/contract/results/tokenizer.js";
import { sizeBound } from "./bound.js";
import { lockTransform, REGISTRY, type RegisteredTransform } from "./registry.js";
import { outputShape, type OutputShape } from "./shape.js";

/** A reason the requested policy cannot be planned: becomes a diagnostic at the tool's definition. */
export interface PlanProblem {
  readonly code: "CAVE7001" | "CAVE7002";
  readonly message: string;
  readonly hint: string;
}

export type PlanOutcome =
  | { readonly ok: true; readonly plan: ResultPlan }
  | { readonly ok: false; readonly problems: readonly PlanProblem[] };

interface Facts {
  readonly tool: string;
  readonly bound: SizeBound;
  readonly shape: OutputShape;
  readonly outDir: string;
}

/**
 * Turns a requested result policy into the concrete plan the runtime follows without further choice.
 * Pure and deterministic: the same policy, output schema and build folder give the same plan.
 * `outputJsonSchema` is null for schema-less tools and opaque schemas without a JSON Schema.
 */
export function planResult(
  tool: string,
  requested: RequestedResult,
  outputJsonSchema: Record<string, unknown> | null,
  outDir: string,
): PlanOutcome {
  const facts: Facts = { tool, bound: sizeBound(outputJsonSchema), shape: outputShape(outputJsonSchema), outDir };
  if (requested.policy === "artifact") return planArtifact(facts, requested.artifact);
  switch (requested.policy) {
    case "auto":
      return planAuto(facts);
    case "inline":
      return ok(inline(facts, "inline (requested): the result enters context as is"));
    case "page":
      return ok(
        paged(
          facts,
          INLINE_CAP_TOKENS,
          DEFAULT_PAGE_TOKENS,
          "none",
          `page (requested): inline up to ${INLINE_CAP_TOKENS} tokens, else pages of ${DEFAULT_PAGE_TOKENS} tokens`,
        ),
      );
    case "compress":
      return compress(facts, null, DEFAULT_PAGE_TOKENS, true, "compress (requested)");
    case "exact_ccr":
      return ok(
        exact(
          facts,
          EXACT_CCR_INLINE_TOKENS,
          DEFAULT_PAGE_TOKENS,
          `exact_ccr (requested): inline up to ${EXACT_CCR_INLINE_TOKENS} tokens, else ${exactText(DEFAULT_PAGE_TOKENS, EXACT_CCR_INLINE_TOKENS)}`,
        ),
      );
  }
}

/** The table of docs/result-plans.md: inline when the bound fits the cap, otherwise by shape. */
function planAuto(facts: Facts): PlanOutcome {
  const { bound, shape } = facts;
  if (bound.kind === "bounded" && bound.tokens <= INLINE_CAP_TOKENS) {
    return ok(
      inline(
        facts,
        `auto: the output schema bounds a result to ${bound.tokens} tokens, within the ${INLINE_CAP_TOKENS}-token inline cap: inline`,
      ),
    );
  }
  const why =
    bound.kind === "bounded"
      ? `the output schema bounds a result to ${bound.tokens} tokens, over the ${INLINE_CAP_TOKENS}-token inline cap`
      : `unbounded (${describeUnbounded(bound)})`;
  const head = `auto: ${why}; inline up to ${INLINE_CAP_TOKENS} tokens, else`;
  if (shape.kind === "records" || shape.kind === "array") {
    return ok(
      paged(
        facts,
        INLINE_CAP_TOKENS,
        DEFAULT_PAGE_TOKENS,
        "none",
        `${head} pages of ${DEFAULT_PAGE_TOKENS} tokens (${shape.kind === "records" ? "an array of records" : "an array"})`,
      ),
    );
  }
  if (shape.kind === "text") {
    const elide = REGISTRY.find((t) => t.id === "elide")!;
    return ok(
      compressed(
        facts,
        elide,
        INLINE_CAP_TOKENS,
        DEFAULT_PAGE_TOKENS,
        "exact_ccr",
        `${head} ${transformText(elide)} after storing the exact result (long text)`,
      ),
    );
  }
  return ok(
    exact(
      facts,
      INLINE_CAP_TOKENS,
      DEFAULT_PAGE_TOKENS,
      `${head} ${exactText(DEFAULT_PAGE_TOKENS, INLINE_CAP_TOKENS)} (${shapeText(shape)})`,
    ),
  );
}

function planArtifact(facts: Facts, artifact: ArtifactOptions): PlanOutcome {
  const { strategy, maxInlineTokens: max, recovery } = artifact;
  const label = `artifact(${strategy}, ${max} tokens, recovery ${recovery})`;
  const pages = strategy !== "compress" || recovery === "exact_ccr";
  if (pages && max < MIN_PAGE_TOKENS) {
    return {
      ok: false,
      problems: [
        {
          code: "CAVE7002",
          message: `tool ${JSON.stringify(facts.tool)}: artifact maxInlineTokens ${max} is also its page size, below the smallest page of ${MIN_PAGE_TOKENS} tokens`,
          hint: `Raise maxInlineTokens to ${MIN_PAGE_TOKENS} or more, e.g. artifact({ maxInlineTokens: ${Math.max(MIN_PAGE_TOKENS, 200)} }).`,
        },
      ],
    };
  }
  if (strategy === "compress") return compress(facts, max, max, recovery === "exact_ccr", label);
  const stored = recovery === "exact_ccr" ? ", exact result stored for cave_recover" : "";
  if (strategy === "page")
    return ok(
      paged(facts, max, max, recovery, `${label}: inline up to ${max} tokens, else pages of ${max} tokens${stored}`),
    );
  return ok(exact(facts, max, max, `${label}: inline up to ${max} tokens, else ${exactText(max, max)}`));
}

/** The first eligible transform in registry order; an ineligible compress is an error naming every transform's reason. */
function compress(
  facts: Facts,
  inlineUpTo: number | null,
  pageTokens: number,
  exactAllowed: boolean,
  label: string,
): PlanOutcome {
  const reasons: string[] = [];
  for (const transform of REGISTRY) {
    const reason = transform.ineligible({ shape: facts.shape, exactRecovery: exactAllowed });
    if (reason !== null) {
      reasons.push(`${transform.id}@${transform.version}: ${reason}`);
      continue;
    }
    const recovery = transform.lossless && inlineUpTo === null ? "none" : exactAllowed ? "exact_ccr" : "none";
    const when = inlineUpTo === null ? "on every result" : `beyond ${inlineUpTo} tokens`;
    const stored = recovery === "exact_ccr" ? ", exact result stored first for cave_recover" : "";
    return ok(
      compressed(
        facts,
        transform,
        inlineUpTo,
        pageTokens,
        recovery,
        `${label}: ${transformText(transform)} ${when}${stored}`,
      ),
    );
  }
  return {
    ok: false,
    problems: [
      {
        code: "CAVE7001",
        message: `tool ${JSON.stringify(facts.tool)}: ${label} has no eligible transform (${reasons.join("; ")})`,
        hint: exactAllowed
          ? "Declare an output schema that is an array of flat records or an object, or choose page or exact_ccr."
          : 'Keep recovery "exact_ccr" (the default) so the lossy elide transform can be used, declare an output schema that is an object or an array of flat records, or choose page or exact_ccr.',
      },
    ],
  };
}

function inline(facts: Facts, reason: string): ResultPlan {
  return {
    strategy: "inline",
    reason,
    bound: facts.bound,
    inlineUpToTokens: null,
    pageTokens: null,
    transform: null,
    recovery: "none",
    tokenizer: null,
  };
}

function paged(
  facts: Facts,
  inlineUpTo: number,
  pageTokens: number,
  recovery: "exact_ccr" | "none",
  reason: string,
): ResultPlan {
  return {
    strategy: "page",
    reason,
    bound: facts.bound,
    inlineUpToTokens: inlineUpTo,
    pageTokens,
    transform: null,
    recovery,
    tokenizer: TOKENIZER,
  };
}

function exact(facts: Facts, inlineUpTo: number, pageTokens: number, reason: string): ResultPlan {
  return {
    strategy: "exact_ccr",
    reason,
    bound: facts.bound,
    inlineUpToTokens: inlineUpTo,
    pageTokens,
    transform: null,
    recovery: "exact_ccr",
    tokenizer: TOKENIZER,
  };
}

function compressed(
  facts: Facts,
  transform: RegisteredTransform,
  inlineUpTo: number | null,
  pageTokens: number,
  recovery: "exact_ccr" | "none",
  reason: string,
): ResultPlan {
  const counts = inlineUpTo !== null || recovery === "exact_ccr";
  return {
    strategy: "compress",
    reason,
    bound: facts.bound,
    inlineUpToTokens: inlineUpTo,
    pageTokens: recovery === "exact_ccr" ? pageTokens : null,
    transform: lockTransform(transform, facts.outDir),
    recovery,
    tokenizer: counts ? TOKENIZER : null,
  };
}

function ok(plan: ResultPlan): PlanOutcome {
  return { ok: true, plan };
}

function transformText(transform: RegisteredTransform): string {
  return `${transform.id}@${transform.version} (${transform.lossless ? "lossless" : "lossy"}: ${transform.summary})`;
}

function exactText(pageTokens: number, inlineUpTo: number): string {
  return `store the exact result and show a ${viewTokens(inlineUpTo)}-token view with a reference (cave_recover pages of ${pageTokens} tokens)`;
}

function describeUnbounded(bound: Extract<SizeBound, { kind: "unbounded" }>): string {
  return bound.path === "" ? bound.why : `${bound.path}: ${bound.why}`;
}

function shapeText(shape: OutputShape): string {
  switch (shape.kind) {
    case "structured":
      return "an object";
    case "scalar":
      return "a bare value";
    case "unknown":
      return "shape unknown";
    default:
      return shape.kind;
  }
}
