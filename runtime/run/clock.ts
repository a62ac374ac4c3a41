/**
 * Milliseconds on a monotonic clock with an arbitrary origin: only differences between two readings mean anything.
 * The runtime's one clock (call and run durations, deadlines, budgets, breakers, idle children).
 *
 * Read from process.hrtime(), not performance.now(): the first read of the `performance` global loads
 * node:perf_hooks, 1-1.7 ms of every start-up on Node 20 (bench/runtime), and a reading costs the same (~80 ns).
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
