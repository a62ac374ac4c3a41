import { MAX_CORRELATION_ID, type CallOptions } from "../../runtime/index.js";

/**
 * run.call options from what a framework hands a tool: its signal (possibly absent) and its own call
 * id (possibly absent, or longer than a receipt keeps: then cut, so a framework's odd id never turns a
 * call into an OPTIONS_INVALID rejection).
 */
export function callOptions(signal: AbortSignal | undefined, callId: string | undefined): CallOptions | undefined {
  const correlationId =
    typeof callId === "string" && callId.length > 0
      ? callId.length > MAX_CORRELATION_ID
        ? callId.slice(0, MAX_CORRELATION_ID)
        : callId
      : undefined;
  if (signal === undefined) return correlationId === undefined ? undefined : { correlationId };
  return correlationId === undefined ? { signal } : { signal, correlationId };
}
