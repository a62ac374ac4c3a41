/**
 * Runs `work` with everything written to this process's stdout sent to stderr instead: an in-process tool's
 * console.log (or process.stdout.write) during `cave call` must never mix with the command's own output, which
 * scripts parse (`--json`). The command's io keeps the stdout writer it captured before (processIO).
 */
export async function stdoutToStderr<T>(work: () => Promise<T>): Promise<T> {
  const original = process.stdout.write;
  process.stdout.write = ((...args: Parameters<typeof process.stderr.write>) =>
    process.stderr.write(...args)) as typeof process.stdout.write;
  try {
    return await work();
  } finally {
    process.stdout.write = original;
  }
}
