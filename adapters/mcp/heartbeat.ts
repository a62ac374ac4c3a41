/** MCP clients time a request out after 60 s unless progress resets the clock (RequestOptions.timeout in both SDK lines). */
export const CLIENT_TIMEOUT_MS = 60_000;

/** Default interval of progress heartbeats: well inside a client's 60 s. */
export const HEARTBEAT_MS = 15_000;

type Send = (notification: {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; message: string };
}) => Promise<void>;

/**
 * Progress notifications as heartbeats for a call whose locked timeout is longer than a client's
 * usual 60 s, sent only when the client asked for progress (a progressToken): the client can then
 * reset its timeout (resetTimeoutOnProgress) instead of giving up on a call cave still allows. Cave
 * knows no fraction done, so `progress` counts heartbeats (it must increase) and there is no total.
 * Returns the function that stops it.
 */
export function startHeartbeat(
  name: string,
  timeoutMs: number,
  token: string | number | undefined,
  send: Send,
  everyMs: number,
): (() => void) | undefined {
  if (token === undefined || timeoutMs <= CLIENT_TIMEOUT_MS) return undefined;
  let beats = 0;
  const timer = setInterval(() => {
    beats += 1;
    const seconds = Math.round((beats * everyMs) / 1000);
    // A heartbeat that cannot be sent (the client went away) is not the call's failure.
    send({
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress: beats,
        message: `${name} is still running (${seconds} s of its ${Math.round(timeoutMs / 1000)} s timeout)`,
      },
    }).catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
