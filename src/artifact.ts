import { ARTIFACT_BRAND } from "./contract/brands.js";
import { CaveError } from "./errors.js";
import { checkArtifactOptions, isPlainObject } from "./rules.js";
import type { ArtifactOptions, ArtifactPolicy } from "./types.js";

export const ARTIFACT_DEFAULTS: ArtifactOptions = Object.freeze({
  strategy: "page",
  maxInlineTokens: 1200,
  recovery: "exact_ccr",
});

/** A result policy: inline up to maxInlineTokens (default 1200), past that `strategy` (default page), with `recovery` (default exact_ccr). */
export function artifact(options: Partial<ArtifactOptions> = {}): ArtifactPolicy {
  if (!isPlainObject(options)) {
    throw new CaveError("artifact()", [
      {
        code: "CAVE1024",
        field: "options",
        message: "artifact() takes one options object",
        hint: "Call artifact({ maxInlineTokens: 800 }) or artifact().",
      },
    ]);
  }
  const violations = checkArtifactOptions(options as Record<string, unknown>);
  if (violations.length > 0) throw new CaveError("artifact()", violations);
  // Each option is taken one by one: spreading would let an explicit undefined replace a default.
  return Object.freeze({
    [ARTIFACT_BRAND]: true as const,
    strategy: options.strategy ?? ARTIFACT_DEFAULTS.strategy,
    maxInlineTokens: options.maxInlineTokens ?? ARTIFACT_DEFAULTS.maxInlineTokens,
    recovery: options.recovery ?? ARTIFACT_DEFAULTS.recovery,
  });
}
