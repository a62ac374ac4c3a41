/** The four effect classes of the contract, and what follows from each. */
export const EFFECTS = ["read", "write", "idempotent", "external"] as const;
export type Effect = (typeof EFFECTS)[number];

/** Only `read` has no durable side effect, so only `read` may be run speculatively. */
export function isSpeculable(effect: Effect): boolean {
  return effect === "read";
}

/** `read` and `idempotent` give the same outcome when repeated with the same arguments; `write` and `external` do not. */
export function isRetryable(effect: Effect): boolean {
  return effect === "read" || effect === "idempotent";
}

export function isEffect(value: unknown): value is Effect {
  return typeof value === "string" && (EFFECTS as readonly string[]).includes(value);
}
