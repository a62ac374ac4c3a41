/**
 * How the broker tells the child's routing that a request was refused or failed: an ordinary HTTP response
 * carrying this header, which the broker strips from every upstream response, so only the broker can send it. The
 * child turns it into a thrown error (NETWORK_REFUSED naming the host or route, or a network failure).
 */
export const REFUSAL_HEADER = "x-cave-egress";

export type Refusal =
  /** Policy: the host or the route is not allowed. */
  | { readonly kind: "refused"; readonly route: string; readonly message: string }
  /** Allowed, but the upstream could not be reached (the child sees a network error with `code`). */
  | { readonly kind: "failed"; readonly route: string; readonly code: string; readonly message: string };

export function refusalHead(refusal: Refusal): { status: number; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    [REFUSAL_HEADER]: refusal.kind,
    "x-cave-egress-route": ascii(refusal.route),
    "x-cave-egress-message": ascii(refusal.message),
    "content-type": "text/plain; charset=utf-8",
  };
  if (refusal.kind === "failed") headers["x-cave-egress-code"] = ascii(refusal.code);
  return { status: refusal.kind === "refused" ? 403 : 502, headers, body: `${refusal.message}\n` };
}

/** Header values are Latin-1 without control characters: anything else is replaced (host names are ASCII already). */
function ascii(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 2000);
}
