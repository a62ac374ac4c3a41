/**
 * The value of one of our own function sources (linear-url.ts, linear-uri.ts, decimal-multiple-of.ts...): each source
 * is embedded as is in the validators' prelude, and evaluated once here so that in-process validation runs the very
 * same code. Constants of ours only, never user data.
 */
export function fromSource<T>(source: string): T {
  return new Function(`return ${source};`)() as T;
}
