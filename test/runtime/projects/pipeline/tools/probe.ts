/**
 * What the tests observe about tool code from outside: module loads, execute calls, aborted signals and
 * switches the tests flip. Kept on globalThis because each staged bundle carries its own copy of this file.
 */
export interface Probe {
  loads: Record<string, number>;
  calls: Record<string, number>;
  aborted: Record<string, boolean>;
  flags: Record<string, unknown>;
  late: unknown[];
}

export function probe(): Probe {
  const g = globalThis as { __caveProbe?: Probe };
  g.__caveProbe ??= { loads: {}, calls: {}, aborted: {}, flags: {}, late: [] };
  return g.__caveProbe;
}

export function loaded(module: string): void {
  probe().loads[module] = (probe().loads[module] ?? 0) + 1;
}

export function called(name: string): number {
  const n = (probe().calls[name] ?? 0) + 1;
  probe().calls[name] = n;
  return n;
}
