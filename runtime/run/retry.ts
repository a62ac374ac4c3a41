/**
 * Which tool failures count as transient, so that a retryable (read or idempotent) tool is tried
 * again with the same arguments. Only failures that say so themselves: an error, or its `cause`,
 * carrying one of Node's / undici's connection-level codes below (the request may never have
 * reached the other side, or the other side dropped it), or an error with `transient: true` set by
 * the tool's author. Everything else (a plain Error, a validation failure, a timeout) is final:
 * guessing would repeat work the tool already reported as done or impossible.
 */
export const TRANSIENT_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** Milliseconds to wait before retry n (1-based): 50, 100, 150... always inside the call's deadline. */
export function retryDelayMs(retry: number): number {
  return 50 * retry;
}

export function isTransient(thrown: unknown): boolean {
  try {
    for (
      let error = thrown, depth = 0;
      typeof error === "object" && error !== null && depth < 3;
      error = (error as { cause?: unknown }).cause, depth++
    ) {
      const { code, transient } = error as { code?: unknown; transient?: unknown };
      if (transient === true) return true;
      if (typeof code === "string" && TRANSIENT_ERROR_CODES.has(code)) return true;
    }
  } catch {
    // A getter that throws tells us nothing reliable: not transient.
  }
  return false;
}
