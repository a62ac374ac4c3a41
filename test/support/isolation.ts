/** Runs `work` with CAVE_ISOLATION set to `value` (or unset), restoring what it was after. */
export async function withIsolation<T>(value: string | undefined, work: () => Promise<T>): Promise<T> {
  const saved = process.env.CAVE_ISOLATION;
  if (value === undefined) delete process.env.CAVE_ISOLATION;
  else process.env.CAVE_ISOLATION = value;
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env.CAVE_ISOLATION;
    else process.env.CAVE_ISOLATION = saved;
  }
}
